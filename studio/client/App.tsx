// The studio: documents on the left; the open document's outline and forms in the middle; the preview on the right.
import { AppShell, Burger, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from './api.ts';
import { changedFields } from '../../content/merge/three-way.ts';
import { backend, changeId, onlineBackend } from './backend/backend.ts';
import { ChangeSetBar } from './online/ChangeSetBar.tsx';
import { useSave } from './editor/use-save.ts';
import { FormContext } from './form/form-context.ts';
import { ObjectFields } from './form/SchemaField.tsx';
import { valueAt, isRecord, type Json } from '../../content/json-pointer.ts';
import { blockType, documentSchema } from './schema/schemas.ts';
import { Catalogue } from './editor/Catalogue.tsx';
import { BlockFields } from './editor/BlockFields.tsx';
import { BrokenFile } from './editor/BrokenFile.tsx';
import { ChecksList } from './editor/ChecksList.tsx';
import { DraftRestored } from './editor/DraftRestored.tsx';
import { Notice } from './editor/Notice.tsx';
import { FileList, useFileList } from './editor/FileList.tsx';
import { NewPage, addressProblem, pageFileOf } from './editor/NewPage.tsx';
import { Outline } from './editor/Outline.tsx';
import { PageActions } from './editor/PageActions.tsx';
import { PageSettings } from './editor/PageSettings.tsx';
import { MoveDialog, ReferencesDialog, type Reference } from './editor/References.tsx';
import { SaveDialog, type SaveSummary } from './editor/SaveDialog.tsx';
import { ConflictBanner } from './editor/ConflictBanner.tsx';
import { useDiskSync } from './editor/use-disk-sync.ts';
import { Toolbar } from './editor/Toolbar.tsx';
import { useStableCallback } from './use-stable-callback.ts';
import { useRemoveBlock, type Guard } from './editor/use-remove-block.ts';
import { useChecks, useGoTo } from './editor/use-checks.ts';
import { dropDraft, useDocument, useSavedFades, useUndoKeys, type Opened } from './editor/use-document.ts';
import { PreviewPane } from './preview/PreviewPane.tsx';
import { RedirectsPreview } from './preview/RedirectsPreview.tsx';
import { SitePreview } from './preview/SitePreview.tsx';
import { currentSite, phoneFor } from '../../renderer/site-context.tsx';
import { siteUrl } from '../../renderer/head.ts';

import { kindOf } from '../../content/kinds.ts';
import { pagePath } from '../../core/page-paths.ts';

export function App() {
  const { files, links, refresh: refreshFiles } = useFileList();
  const [opened, setOpened] = useState<Opened>();
  const [selected, setSelected] = useState<number | null>(null);
  const [saveSummary, setSaveSummary] = useState<SaveSummary>();
  const [catalogue, setCatalogue] = useState(false);
  const [newPage, setNewPage] = useState(false);
  const [moving, setMoving] = useState<Reference[]>();
  const [guard, setGuard] = useState<Guard>();
  const [confirmedAnchors] = useState(() => new Set<string>());
  const [notice, setNotice] = useState<string>();
  // Page actions done: the change set's bar reads the set again after each.
  const [acted, setActed] = useState(0);
  const [documentsShown, toggleDocuments] = useState(false);
  const document = useDocument(opened);
  const { doc } = document;
  const file = opened?.file;
  const checks = useChecks(file, doc);
  const isPage = file?.startsWith('pages/') ?? false;
  const path = file && isPage ? pagePath(file) : '/';

  const open = useCallback(async (name: string) => {
    const { text, version } = await backend.load(name);
    setSelected(null);
    history.replaceState(null, '', `#${name}`);
    try {
      JSON.parse(text);
    } catch {
      // Not valid JSON (a git conflict left in it): shown as broken, never opened into the forms.
      setOpened(undefined);
      setBroken(name);
      return;
    }
    setBroken(undefined);
    setOpened({ file: name, text, version });
  }, []);
  const { stale, compare, merge, refused } = useDiskSync({ opened, document, open, setOpened, setNotice });
  const [broken, setBroken] = useState<string>();
  // A broken document opens by itself once the list (read every few seconds) finds it valid again.
  const brokenNow = broken === undefined ? undefined : files.find((f) => f.file === broken);
  useEffect(() => {
    if (broken !== undefined && brokenNow && !brokenNow.broken) void open(broken);
  }, [broken, brokenNow, open]);
  useEffect(() => {
    const start = decodeURIComponent(location.hash.slice(1));
    if (start) void open(start);
  }, [open]);

  // Changing or clearing an anchor other documents link to lists those links first.
  const change = useStableCallback((pointer: string, value: unknown, label?: string) => {
    const before = /^\/blocks\/\d+\/id$/.test(pointer) ? valueAt(document.latest(), pointer) : undefined;
    if (typeof before === 'string' && isPage && !confirmedAnchors.has(before) && value !== before) {
      void api.references(path, before).then((refs) => {
        const others = refs.filter((r) => r.file !== file);
        if (!others.length) return document.change(pointer, value, label);
        setGuard({
          refs: others,
          what: `The anchor “${before}” is linked from other documents.`,
          proceed: () => {
            confirmedAnchors.add(before);
            document.change(pointer, value, label);
          },
        });
      });
      return;
    }
    document.change(pointer, value, label);
  });

  const removeBlock = useRemoveBlock({
    doc,
    isPage,
    path,
    file,
    remove: (index) => {
      document.blocks.remove(index);
      setSelected(null);
    },
    setGuard,
  });

  const startSave = async () => {
    const latest = document.latest();
    if (!file || latest === undefined || !opened) return;
    const { changed } = await api.diff(file, latest);
    const isNew = Boolean(opened.isNew);
    const changes = isNew ? [] : changedFields(JSON.parse(opened.text) as Json, latest);
    setSaveSummary({ changes, lines: changed, doc: latest, isNew });
  };
  const { save, autosave } = useSave({
    file,
    opened,
    document,
    checks,
    stale: stale !== undefined,
    refused,
    setNotice,
    setOpened,
    closeDialog: () => setSaveSummary(undefined),
    refreshFiles,
  });

  const { goTo, firstError } = useGoTo(checks, setSelected);

  useUndoKeys(document);
  useSavedFades(document.dirty, setNotice);

  const blocks = isRecord(doc) && Array.isArray(doc.blocks) ? doc.blocks : [];
  const block = selected !== null ? blocks[selected] : undefined;
  const type = blockType(isRecord(block) ? block.type : undefined);
  const phoneLine = isRecord(doc) && doc.phoneLine === 'secondary' ? 'secondary' : 'primary';
  const tokens = useMemo(
    () => ({ phone: phoneFor(phoneLine).display, email: currentSite().email }),
    [phoneLine],
  );
  const selectFromPreview = useCallback((index: number) => setSelected(index), []);
  const moveBlock = useStableCallback((from: number, to: number) => {
    document.blocks.move(from, to);
    if (selected === from) setSelected(to);
  });
  const duplicateBlock = useStableCallback((index: number) => document.blocks.duplicate(index));
  const form = useMemo(
    () => ({ store: document.store, change, errorsAt: checks.errorsAt, links, tokens }),
    [document.store, change, checks.errorsAt, links, tokens],
  );

  return (
    <FormContext.Provider value={form}>
      <AppShell
        navbar={{ width: { base: 230, xl: 280 }, breakpoint: 'sm', collapsed: { mobile: !documentsShown } }}
        padding="sm"
      >
        <AppShell.Navbar p="sm">
          <FileList
            files={files}
            open={file}
            choose={(f) => {
              toggleDocuments(false);
              void open(f);
            }}
            newPage={() => setNewPage(true)}
          />
        </AppShell.Navbar>
        <AppShell.Main>
          <div>
            <Group gap="xs" mb="xs">
              {/* On a phone the document list folds away behind this button. */}
              <Burger
                hiddenFrom="sm"
                size="sm"
                opened={documentsShown}
                onClick={() => toggleDocuments(!documentsShown)}
                aria-label={documentsShown ? 'Hide the documents' : 'Show the documents'}
                title={documentsShown ? 'Hide the documents' : 'Show the documents'}
              />
              <Title order={1} size="h4">
                {onlineBackend ? 'Editor' : 'Studio'}
              </Title>
            </Group>
            {onlineBackend && changeId ? (
              <ChangeSetBar
                changeId={changeId}
                backend={onlineBackend}
                file={file}
                autosave={autosave}
                acted={acted}
              />
            ) : null}
            {broken ? (
              <BrokenFile file={broken} problem={files.find((f) => f.file === broken)?.broken} />
            ) : !file || doc === undefined ? (
              <Text>Choose a document on the left, or make a new page.</Text>
            ) : (
              <Stack gap="sm">
                <Toolbar
                  file={file}
                  dirty={document.dirty || Boolean(opened?.isNew)}
                  errorCount={checks.errors.length}
                  blocking={checks.blocking}
                  warningCount={checks.warnings.length}
                  checkedDoc={checks.checkedDoc}
                  store={document.store}
                  canUndo={document.canUndo}
                  canRedo={document.canRedo}
                  undo={document.undo}
                  redo={document.redo}
                  save={() => void (onlineBackend ? save() : startSave())}
                  firstError={firstError}
                />
                <ChecksList errors={checks.errors} warnings={checks.warnings} doc={doc} goTo={goTo} />
                <Notice notice={notice} dismiss={() => setNotice(undefined)} />
                {document.restored ? (
                  <DraftRestored
                    discard={() => {
                      dropDraft(file);
                      void open(file);
                    }}
                  />
                ) : null}
                {stale && doc !== undefined ? (
                  <ConflictBanner
                    stale={stale}
                    doc={doc}
                    reload={() => {
                      dropDraft(file);
                      void open(file);
                    }}
                    compare={() => void compare()}
                    keepMine={() => void merge({})}
                    decide={(choices) => void merge(choices)}
                  />
                ) : null}
                <Group align="flex-start" wrap="nowrap" gap="md" className="studio-columns">
                  <Stack gap="sm" className="studio-editor">
                    {isPage ? (
                      <>
                        <Group justify="space-between">
                          <Button
                            size="xs"
                            variant={selected === null ? 'filled' : 'light'}
                            onClick={() => setSelected(null)}
                          >
                            Page settings{checks.outsideBlocks ? ` (${checks.outsideBlocks} errors)` : ''}
                          </Button>
                          <Button size="xs" variant="light" onClick={() => setCatalogue(true)}>
                            Add a block
                          </Button>
                        </Group>
                        <Outline
                          blocks={blocks}
                          keys={document.keys}
                          selected={selected}
                          errorCount={checks.inBlock}
                          select={setSelected}
                          move={moveBlock}
                          duplicate={duplicateBlock}
                          remove={removeBlock}
                        />
                      </>
                    ) : null}
                    <section aria-label="Fields">
                      {isPage && selected !== null && type ? (
                        <BlockFields
                          index={selected}
                          type={type}
                          block={block}
                          blockKey={document.keys[selected]}
                        />
                      ) : isPage ? (
                        <PageSettings
                          doc={doc}
                          path={path}
                          siteUrl={siteUrl()}
                          canMove={!document.dirty && !opened?.isNew}
                          actions={
                            <PageActions
                              file={file}
                              path={path}
                              name={isRecord(doc) && typeof doc.name === 'string' ? doc.name : path}
                              version={opened?.version ?? ''}
                              canAct={!document.dirty && !opened?.isNew}
                              pages={links.pages}
                              done={(message, next) => {
                                refreshFiles();
                                setActed((n) => n + 1);
                                // A deleted page: staff land where its visitors now go.
                                void (next ? open(pageFileOf(next)) : Promise.resolve()).then(() =>
                                  setNotice(message),
                                );
                              }}
                            />
                          }
                          move={() => void api.references(path).then(setMoving)}
                        />
                      ) : (
                        <ObjectFields
                          node={documentSchema(kindOf(file) ?? 'form')}
                          pointer=""
                          value={doc}
                          skip={['$schema']}
                        />
                      )}
                    </section>
                  </Stack>
                  <div className="studio-preview">
                    {isPage ? (
                      <PreviewPane
                        // Drawn anew after a page action: its frames read the site data again (a new menu link).
                        key={acted}
                        store={document.store}
                        path={path}
                        selected={selected}
                        select={selectFromPreview}
                      />
                    ) : file === 'site/site.json' ? (
                      <SitePreview store={document.store} files={files} />
                    ) : file === 'site/redirects.json' ? (
                      <RedirectsPreview doc={doc} files={files} errors={checks.errors} />
                    ) : null}
                  </div>
                </Group>
              </Stack>
            )}
          </div>
        </AppShell.Main>
      </AppShell>
      <Catalogue
        opened={catalogue}
        close={() => setCatalogue(false)}
        add={(newBlock) => {
          const at = selected === null ? blocks.length : selected + 1;
          document.blocks.add(at, newBlock);
          setSelected(at);
          setCatalogue(false);
        }}
      />
      <SaveDialog summary={saveSummary} close={() => setSaveSummary(undefined)} confirm={() => void save()} />
      <NewPage
        opened={newPage}
        close={() => setNewPage(false)}
        files={files}
        links={links}
        copyOf={async (name) => JSON.parse((await backend.load(name)).text) as Json}
        create={(name, newDoc) => {
          setOpened({ file: name, text: JSON.stringify(newDoc), version: '', isNew: true });
          setSelected(null);
        }}
      />
      <ReferencesDialog
        references={guard?.refs}
        what={guard?.what ?? ''}
        close={() => setGuard(undefined)}
        proceed={() => {
          guard?.proceed();
          setGuard(undefined);
        }}
      />
      {moving && file ? (
        <MoveDialog
          opened
          from={path}
          references={moving.filter((r) => r.file !== file)}
          problem={(p) => addressProblem(p, links)}
          close={() => setMoving(undefined)}
          move={(to, redirect) =>
            void api.rename(file, to, opened?.version ?? '', redirect).then(async (r) => {
              setMoving(undefined);
              if (!r.ok) return setNotice(`The page was not moved (${r.status}).`);
              refreshFiles();
              setActed((n) => n + 1);
              await open(((await r.json()) as { file: string }).file);
              setNotice(`Moved to ${to}${redirect ? `, with a redirect from ${path}` : ''}.`);
            })
          }
        />
      ) : null}
    </FormContext.Provider>
  );
}
