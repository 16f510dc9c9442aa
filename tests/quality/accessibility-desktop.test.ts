// axe-core on every route at 1366 px (a desktop), light and dark: see accessibility.ts.
import { DESKTOP } from '../helpers/browser.ts';
import { accessibilitySuite } from './accessibility.ts';

accessibilitySuite('desktop (1366 px)', DESKTOP);
