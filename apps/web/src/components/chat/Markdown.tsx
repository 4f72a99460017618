import ReactMarkdown, { type Components } from "react-markdown";
import styles from "./chat.module.css";
import { safeUrl } from "./safe-url";

/**
 * Markdown from the model, rendered safely: raw HTML is shown as text (no rehype-raw), links
 * only to http(s) and open in a new tab, images are not loaded (they would call out) but linked.
 */
const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer nofollow">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown components={components} urlTransform={safeUrl}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
