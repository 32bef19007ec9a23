/**
 * The fake platform's git object ids: a file's from its bytes, a folder's from its files' paths and
 * bytes, so equal folders in different repositories have equal tree ids, as in git.
 */
export function objectId(files: Readonly<Record<string, string>>, path: string): string {
  const hash = new Bun.CryptoHasher("sha1");
  const content = files[path];
  if (content !== undefined) return hash.update(`blob\0${content}`).digest("hex");
  const prefix = `${path}/`;
  for (const file of Object.keys(files).sort()) {
    if (file.startsWith(prefix)) hash.update(`${file.slice(prefix.length)}\0${files[file]}\0`);
  }
  return hash.digest("hex");
}

/** Fills `tree` into each expected skill that names its folder (`path`), from the seed's files. */
export function withTrees(fixture: {
  seed: { files?: Record<string, string> };
  expected: { contents: unknown };
}): void {
  const contents = fixture.expected.contents as { skills?: Array<{ path?: string; tree?: string }> } | null;
  for (const skill of contents?.skills ?? []) {
    if (skill.path && fixture.seed.files) skill.tree = objectId(fixture.seed.files, skill.path);
  }
}
