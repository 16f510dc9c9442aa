// axe-core on every route at 390 px (a phone, with touch), light and dark: see accessibility.ts.
import { PHONE } from '../helpers/browser.ts';
import { accessibilitySuite } from './accessibility.ts';

accessibilitySuite('phone (390 px)', PHONE);
