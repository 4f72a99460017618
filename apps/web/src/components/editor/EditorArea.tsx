"use client";

import { MAX_EDITOR_FILE_BYTES } from "@coder/protocol";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { baseName } from "../../lib/paths/workspace-path";
import { DiskNoticeBar } from "./DiskNoticeBar";
import styles from "./editor.module.css";
import type { EditorController } from "./editor-controller";
import { FilePreview } from "./FilePreview";
import { FollowBar } from "./FollowBar";
import { LanguagePanel } from "./lsp/LanguagePanel";
import type { OpenFile } from "./open-files";
import { isImagePath, previewKindOf } from "./preview-kind";
import { useFollowing } from "./use-following";
import { ImageViewer } from "./WorkspaceImage";

export function EditorArea({
  controller,
  workspaceId,
}: {
  controller: EditorController;
  workspaceId: string;
}) {
  const { files, active, ended } = useSyncExternalStore(
    controller.subscribe,
    controller.snapshot,
    controller.snapshot,
  );
  const hostRef = useRef<HTMLDivElement>(null);
  const activeFile = files.find((file) => file.path === active);
  const editable = activeFile?.phase === "ready" && activeFile.kind === "text";
  const leader = useFollowing(controller);

  useEffect(() => {
    const host = hostRef.current;
    return host ? controller.attach(host) : undefined;
  }, [controller]);

  // Show the active file once its text is loaded (and after every tab switch).
  useEffect(() => {
    if (editable) controller.show(active);
  }, [controller, active, editable]);

  return (
    <section className={styles.area}>
      <div className={styles.tabBar}>
        <div className={styles.tabs} role="tablist">
          {files.map((file) => (
            <EditorTab
              key={file.path}
              file={file}
              active={file.path === active}
              onSelect={() => controller.open(file.path)}
              onClose={() => controller.close(file.path)}
            />
          ))}
        </div>
        {editable && active && previewKindOf(active) && (
          <button
            type="button"
            className={`button ${styles.previewToggle}`}
            data-testid="preview-toggle"
            aria-pressed={activeFile.preview === true}
            onClick={() => controller.togglePreview(active)}
            title="Show the rendered file beside its text (Ctrl/Cmd-Shift-V)"
          >
            Preview
          </button>
        )}
        {ended ? (
          <span
            className={styles.save}
            data-testid="editor-read-only"
            title="Your access to this workspace ended"
          >
            Read-only
          </span>
        ) : activeFile?.live ? (
          <span className={styles.save} data-testid="disk-state" data-saved={String(!activeFile.dirty)}>
            {activeFile.dirty ? "Writing to disk…" : "On disk"}
          </span>
        ) : (
          <button
            type="button"
            className={`button ${styles.save}`}
            data-testid="save-button"
            disabled={!editable || activeFile?.saving}
            onClick={() => active && controller.save(active)}
            title="Save (Ctrl/Cmd-S)"
          >
            {activeFile?.saving && <span className="spinner" />}
            Save
          </button>
        )}
      </div>
      {leader && <FollowBar name={leader.name} />}
      {activeFile?.notice && <DiskNoticeBar file={activeFile} controller={controller} />}
      <div className={styles.body}>
        <div ref={hostRef} className={styles.editor} data-testid="editor" hidden={!editable} />
        {editable && active && activeFile.preview && (
          <FilePreview key={active} workspaceId={workspaceId} path={active} controller={controller} />
        )}
        {activeFile?.kind === "binary" && isImagePath(activeFile.path) ? (
          <ImageViewer workspaceId={workspaceId} path={activeFile.path} size={activeFile.size} />
        ) : (
          !editable && <Placeholder file={activeFile} onRetry={() => active && controller.open(active)} />
        )}
      </div>
      {controller.intelligence && (
        <LanguagePanel intelligence={controller.intelligence} controller={controller} activePath={active} />
      )}
    </section>
  );
}

function EditorTab({
  file,
  active,
  onSelect,
  onClose,
}: {
  file: OpenFile;
  active: boolean;
  onSelect: () => void;
  onClose: () => void;
}) {
  return (
    <div
      role="tab"
      tabIndex={0}
      aria-selected={active}
      title={file.path}
      className={`${styles.tab} ${active ? styles.activeTab : ""}`}
      data-testid="editor-tab"
      data-path={file.path}
      data-dirty={String(file.dirty)}
      data-live={String(file.live ?? false)}
      onClick={onSelect}
      onKeyDown={(event) => event.key === "Enter" && onSelect()}
      onAuxClick={(event) => event.button === 1 && onClose()}
    >
      <span className={styles.tabName}>{baseName(file.path)}</span>
      {file.dirty && (
        <span className={styles.dirty} title={file.live ? "Not yet written to disk" : "Unsaved changes"}>
          ●
        </span>
      )}
      <button
        type="button"
        className={styles.closeTab}
        aria-label={`Close ${file.path}`}
        onClick={(event) => {
          event.stopPropagation();
          onClose();
        }}
      >
        ×
      </button>
    </div>
  );
}

function Placeholder({ file, onRetry }: { file: OpenFile | undefined; onRetry: () => void }) {
  if (!file) return <p className={styles.placeholder}>Open a file from the tree on the left.</p>;
  if (file.phase === "loading") {
    return (
      <p className={styles.placeholder}>
        <span className="spinner" /> Opening {file.path}…
      </p>
    );
  }
  if (file.phase === "failed") {
    return (
      <p className={styles.placeholder} role="alert">
        Could not open {file.path}: {file.error}{" "}
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      </p>
    );
  }
  const limit = `${MAX_EDITOR_FILE_BYTES / (1024 * 1024)} MB`;
  return (
    <p className={styles.placeholder}>
      {file.kind === "binary"
        ? `${file.path} is a binary file and cannot be shown in the editor.`
        : `${file.path} is larger than ${limit}, too large for the editor. Use the terminal to work with it.`}
    </p>
  );
}
