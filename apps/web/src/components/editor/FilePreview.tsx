"use client";

import { useEffect, useState } from "react";
import ReactMarkdown, { type Components, defaultUrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";
import { resolveLink } from "../../lib/paths/workspace-path";
import type { EditorController } from "./editor-controller";
import styles from "./preview.module.css";
import { previewKindOf } from "./preview-kind";
import { WorkspaceImage } from "./WorkspaceImage";

/** Typing is rendered once it pauses this long, so a large document does not slow the editor. */
const RENDER_DELAY_MS = 150;

/** The open file's current text (unsaved edits included), following the editor. */
function useLiveText(controller: EditorController, path: string): string {
  const [text, setText] = useState(() => controller.textOf(path) ?? "");
  useEffect(() => {
    setText(controller.textOf(path) ?? "");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = controller.subscribeText((changed) => {
      if (changed !== path) return;
      clearTimeout(timer);
      timer = setTimeout(() => setText(controller.textOf(path) ?? ""), RENDER_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [controller, path]);
  return text;
}

/** The rendered view beside a Markdown or SVG file. */
export function FilePreview({
  workspaceId,
  path,
  controller,
}: {
  workspaceId: string;
  path: string;
  controller: EditorController;
}) {
  const text = useLiveText(controller, path);
  return (
    <div className={styles.preview} data-testid="file-preview" data-path={path}>
      {previewKindOf(path) === "svg" ? (
        // An SVG is shown as an image, never put into the page: its scripts and handlers never run.
        // biome-ignore lint/performance/noImgElement: a data: URL of the editor's text, nothing to optimise
        <img
          className={styles.viewedImage}
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`}
          alt={path}
        />
      ) : (
        <MarkdownView
          workspaceId={workspaceId}
          path={path}
          text={text}
          open={(target) => void controller.open(target)}
        />
      )}
    </div>
  );
}

/**
 * A workspace's Markdown, which may be hostile: raw HTML is dropped (no script, no event
 * handlers, no iframes), links to web pages open in a new tab without access to this one, links
 * into the workspace open the file, and images of the workspace come through the API.
 */
function MarkdownView({
  workspaceId,
  path,
  text,
  open,
}: {
  workspaceId: string;
  path: string;
  text: string;
  open(path: string): void;
}) {
  const components: Components = {
    a: ({ href, children }) => {
      const inside = href ? resolveLink(path, href) : undefined;
      if (inside) {
        return (
          <a
            href={`#${inside}`}
            onClick={(event) => {
              event.preventDefault();
              open(inside);
            }}
          >
            {children}
          </a>
        );
      }
      return href && /^https?:/i.test(href) ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      ) : (
        <span>{children}</span>
      );
    },
    img: ({ src, alt }) => {
      const inside = typeof src === "string" ? resolveLink(path, src) : undefined;
      if (inside)
        return (
          <WorkspaceImage
            workspaceId={workspaceId}
            path={inside}
            alt={alt ?? inside}
            className={styles.inlineImage}
          />
        );
      // Images from elsewhere would call out (and the page's policy blocks them): a link instead.
      return typeof src === "string" && /^https?:/i.test(src) ? (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow">
          {alt || src}
        </a>
      ) : (
        <span>{alt}</span>
      );
    },
  };
  return (
    <div className={styles.markdown}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={defaultUrlTransform}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
