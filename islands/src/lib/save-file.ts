// saveFile hands a downloaded file to the browser to save under name:
// what a call that needs the sign-in (a bearer token a plain link would
// not carry) downloads, as the register's CSV, a file of evidence or an
// organisation's export.
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// fileName is the name a Content-Disposition header gives (filename=,
// quoted or not), else fallback.
export function fileName(disposition: string | null, fallback: string): string {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? "");
  return m ? m[1] : fallback;
}
