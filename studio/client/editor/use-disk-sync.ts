// The stored document changed since the edits began (a colleague, a `git pull`, another tab). With no edits it is
// simply reloaded, and staff are told; with edits they learn who changed it, can compare both sides' changes as
// fields, and bring both together with the field-by-field merge (content/merge/three-way.ts), which stops only at a
// field both changed. Watched from the version the edits started from: a draft restored after a reload may be
// older than the disk.
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { Json } from '../../../content/json-pointer.ts';
import { changedFields, mergeThreeWay, type Choices } from '../../../content/merge/three-way.ts';
import { backend, online } from '../backend/backend.ts';
import type { Stale } from './ConflictBanner.tsx';
import type { Opened, useDocument } from './use-document.ts';

type Args = {
  opened: Opened | undefined;
  document: ReturnType<typeof useDocument>;
  open: (file: string) => Promise<void>;
  setOpened: Dispatch<SetStateAction<Opened | undefined>>;
  setNotice: (notice: string) => void;
};

const changedWords = (changedBy: string) =>
  changedBy.startsWith('changed on disk') ? changedBy : `changed by ${changedBy}`;

export function useDiskSync({ opened, document, open, setOpened, setNotice }: Args) {
  const [stale, setStale] = useState<Stale>();
  const file = opened?.file;
  // Opening or reloading a document starts afresh; a save or a merge (`keep`) settles the banner itself.
  useEffect(() => {
    if (!opened?.keep) setStale(undefined);
  }, [opened]);

  const version = opened?.isNew ? undefined : document.base().version;
  const { dirty, restored } = document;
  useEffect(() => {
    if (!file || version === undefined) return;
    return backend.watch(file, version, (change) => {
      // Gone (deleted here or elsewhere): there is nothing to reload, and opening it again would only fail.
      if (!change.version)
        return setNotice(`This document no longer exists: it was ${changedWords(change.changedBy)}.`);
      if (!dirty && !restored)
        void open(file).then(() =>
          setNotice(`This file was reloaded: it was ${changedWords(change.changedBy)}.`),
        );
      else setStale((now) => ({ ...now, changedBy: change.changedBy, refused: now?.refused ?? false }));
    });
  }, [file, version, dirty, restored, open, setNotice]);

  /** Their version and the three sides of a merge: what my edits started from, mine, theirs. */
  const sides = async () => {
    const mine = document.latest();
    if (!file || mine === undefined) return undefined;
    const disk = await backend.load(file);
    const base = JSON.parse(document.base().text || 'null') as Json;
    return { disk, base, mine, theirs: JSON.parse(disk.text) as Json };
  };

  const compare = async () => {
    const s = await sides();
    if (!s) return;
    const comparison = {
      theirs: changedFields(s.base, s.theirs),
      mine: changedFields(s.base, s.mine),
      theirsDoc: s.theirs,
    };
    setStale((now) => (now ? { ...now, comparison } : now));
  };

  const merge = async (choices: Choices) => {
    const s = await sides();
    if (!s || !file) return;
    const { merged, conflicts } = mergeThreeWay(s.base, s.mine, s.theirs, choices);
    // Only a field both changed stops the merge; a choice is asked for each (again, if the disk changed meanwhile).
    if (conflicts.some((c) => choices[c.pointer] === undefined))
      return setStale((now) => (now ? { ...now, conflicts } : now));
    // Their version is the new base: a save now names it, and writes my edits and my choices on top of theirs.
    setOpened({ file, text: s.disk.text, version: s.disk.version, keep: true });
    document.replace(merged, 'merge');
    const who = stale?.changedBy ?? '';
    setStale(undefined);
    const count = changedFields(s.base, s.theirs).length;
    const from = who.startsWith('changed on disk') ? 'changed on disk' : `from ${who.replace(/ \(.*$/, '')}`;
    setNotice(
      `Merged: ${count} field${count === 1 ? '' : 's'} ${from} and your edits are in the draft. ${
        // Online, a draft saves itself (online/use-autosave.ts).
        online ? 'It saves itself in a moment.' : 'Save to write them.'
      }`,
    );
  };

  return {
    stale,
    compare,
    merge,
    /** A save was refused: the stored document is no longer the version the edits started from. */
    refused: (changedBy: string) => setStale((now) => ({ ...now, changedBy, refused: true })),
  };
}
