"use client";

import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./preview.module.css";

/**
 * An image of the workspace, fetched through the API and shown from a `data:` URL whose type the
 * service read from the bytes. Always `<img>`: an SVG's scripts never run there, and a `data:`
 * URL cannot be opened as a page of this origin.
 */
export function WorkspaceImage({
  workspaceId,
  path,
  alt,
  className,
}: {
  workspaceId: string;
  path: string;
  alt: string;
  className?: string;
}) {
  const trpc = useTRPC();
  const image = useQuery(trpc.files.image.queryOptions({ workspaceId, path }));
  if (image.isPending) return <span className={styles.muted}>Loading {path}…</span>;
  if (image.isError)
    return (
      <span className={styles.muted}>
        Could not load {path}: {errorMessage(image.error)}
      </span>
    );
  const result = image.data;
  if (result.kind !== "image") {
    const why = result.kind === "too_large" ? "is too large to show" : "is not an image this viewer shows";
    return (
      <span className={styles.muted}>
        {path} {why}
      </span>
    );
  }
  // biome-ignore lint/performance/noImgElement: a data: URL of the file's bytes, nothing to optimise
  return <img className={className} src={`data:${result.mime};base64,${result.base64}`} alt={alt} />;
}

/** A binary image file, shown in place of the editor. */
export function ImageViewer({
  workspaceId,
  path,
  size,
}: {
  workspaceId: string;
  path: string;
  size?: number;
}) {
  return (
    <div className={styles.imageViewer} data-testid="image-viewer" data-path={path}>
      <WorkspaceImage workspaceId={workspaceId} path={path} alt={path} className={styles.viewedImage} />
      {size !== undefined && <span className={styles.muted}>{formatSize(size)}</span>}
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
