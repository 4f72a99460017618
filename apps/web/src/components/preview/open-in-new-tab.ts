/**
 * Opens a preview in a new tab. The tab is opened at once, inside the click (a tab opened after
 * the `preview.open` round trip would be taken for a popup and blocked), and cut from this page
 * before it loads the app: an untrusted page must not reach the IDE through `window.opener`.
 * When the URL cannot be had, the blank tab closes again and the error goes to the caller.
 */
export async function openInNewTab(url: Promise<string>): Promise<void> {
  const tab = window.open("about:blank", "_blank");
  if (tab) tab.opener = null;
  try {
    const target = await url;
    if (tab) tab.location.href = target;
    else window.open(target, "_blank", "noopener,noreferrer");
  } catch (error) {
    tab?.close();
    throw error;
  }
}
