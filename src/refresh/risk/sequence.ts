/**
 * Fetch-then-execute across lines: a file downloaded (`curl -o x`, `wget -O x`, `wget URL`) and,
 * within the next few lines, run (`sh x`, `bash x`, `chmod +x x`, `./x`, `source x`, `python x`).
 * A file checked or unpacked instead (`sha256sum -c`, `tar xf`) is not run.
 */

/** Lines a download is remembered for. */
const REMEMBERED_LINES = 8;
const DOWNLOAD =
  /\b(?:curl|wget)\b[^\n|;&]{0,300}?\s(?:-o|--output|-O|--output-document)[=\s]{0,4}["']?([A-Za-z0-9._/~$-]{1,120})/;
const WGET_URL =
  /\bwget\s(?:[^\n|;&]{0,200}\s)?https?:\/\/[^\s"']{0,300}\/([A-Za-z0-9._-]{1,120}\.(?:sh|bash|py|pl|rb|ps1|js))\b/;
const RUN =
  /(?:^|[\s;&|(`])(?:sudo\s{1,4})?(?:(?:ba|z|k)?sh|source|\.|python[0-9.]{0,4}|node|perl|ruby|chmod\s{1,4}[+0-7a-z]{1,6}|pwsh|powershell(?:\s{1,4}-File)?)\s{1,4}["']?(\.\/)?([A-Za-z0-9._/~$-]{1,120})|(?:^|[\s;&|(`])\.\/([A-Za-z0-9._-]{1,120})/g;

/** A scanner of consecutive lines: each call takes the next line and answers where a downloaded file is run, or -1. */
export function fetchedThenRun(): (line: string) => number {
  const downloaded = new Map<string, number>();
  let index = 0;
  return (line: string) => {
    index++;
    for (const [name, at] of downloaded) if (index - at > REMEMBERED_LINES) downloaded.delete(name);
    let found = -1;
    if (downloaded.size > 0 && line.length <= 2000) {
      RUN.lastIndex = 0;
      for (let m = RUN.exec(line); m !== null; m = RUN.exec(line)) {
        const name = base(m[2] ?? m[3] ?? "");
        if (name && downloaded.has(name) && downloaded.get(name)! < index) {
          found = m.index;
          break;
        }
      }
    }
    const fetched = DOWNLOAD.exec(line)?.[1] ?? WGET_URL.exec(line)?.[1];
    if (fetched && fetched !== "-" && !fetched.startsWith("/dev/")) downloaded.set(base(fetched), index);
    return found;
  };
}

const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);
