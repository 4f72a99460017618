"use client";

import styles from "./editor.module.css";
import type { EditorController } from "./editor-controller";
import type { OpenFile } from "./open-files";

/** The banner that asks the person to settle a disagreement between the editor and the disk. */
export function DiskNoticeBar({ file, controller }: { file: OpenFile; controller: EditorController }) {
  const { path } = file;
  const action = (label: string, run: () => void, testId: string) => (
    <button type="button" className="button" data-testid={testId} onClick={run}>
      {label}
    </button>
  );
  return (
    <div className={styles.notice} role="alert" data-testid="disk-notice" data-notice={file.notice}>
      {file.notice === "changed-on-disk" && (
        <>
          <span>This file changed on disk.</span>
          {action("Reload", () => controller.reload(path), "notice-reload")}
          {action("Keep mine", () => controller.keepMine(path), "notice-keep")}
        </>
      )}
      {file.notice === "save-conflict" && (
        <>
          <span>Not saved: the file changed on disk since you opened it.</span>
          {action("Reload", () => controller.reload(path), "notice-reload")}
          {action("Overwrite", () => controller.save(path, true), "notice-overwrite")}
        </>
      )}
      {file.notice === "deleted-on-disk" && (
        <>
          <span>This file was deleted on disk.</span>
          {action("Close", () => controller.close(path), "notice-close")}
          {action("Keep mine", () => controller.keepMine(path), "notice-keep")}
        </>
      )}
    </div>
  );
}
