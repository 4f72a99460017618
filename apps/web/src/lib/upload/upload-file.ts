/**
 * Sends a file (or a packed Blob) to `POST /api/uploads` and resolves with its upload id. XHR, not
 * fetch: only XHR reports how much of the body has gone out, which the form shows.
 */
export function uploadFile(
  body: Blob,
  name: string,
  onProgress?: (percent: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/uploads?name=${encodeURIComponent(name)}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress?.(Math.floor((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const answer = (xhr.response ?? {}) as { uploadId?: string; error?: string };
      if (xhr.status === 201 && answer.uploadId) resolve(answer.uploadId);
      else reject(new Error(answer.error ?? `the upload failed (HTTP ${xhr.status})`));
    };
    xhr.onerror = () =>
      reject(new Error("the upload was cut off: it may be larger than the service accepts"));
    xhr.send(body);
  });
}
