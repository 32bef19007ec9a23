/**
 * Package files (package.json, pyproject.toml, requirements.txt, go.mod, Cargo.toml): the
 * dependencies they name, matched against the evidence rules (an MCP SDK), and each package's own
 * name, which is the server's name when it depends on an SDK.
 */
import { parse as parseToml } from "smol-toml";
import { ENTRY_NAME, type Gate, isObject, type Json, MAX_ENTRIES } from "./manifest-gate";
import type { PublishedNames } from "./reading";
import { MANIFEST_FILES } from "./selection";
import { NPM_NAME, PYPI_NAME } from "./server";

/** The package files' texts, each null when absent or refused. */
export interface PackageTexts {
  package: string | null;
  pyproject: string | null;
  requirements: string | null;
  gomod: string | null;
  cargo: string | null;
}

export interface Declared {
  dependencies: Array<{ file: string; name: string }>;
  /** Each file's own package name, where it is one a user can read. */
  names: Map<string, string>;
  /** The packages package.json and pyproject.toml publish (not `private`), names checked. */
  packages: PublishedNames;
}

/** PyPI names normalised as pip compares them. */
const pep503 = (n: string) => n.toLowerCase().replace(/[-_.]+/g, "-");

function toml(gate: Gate, text: string | null, file: string, id: string): Json | null {
  if (text === null) return null;
  try {
    return parseToml(text) as Json;
  } catch {
    return gate.refuse(file, "invalid TOML", id);
  }
}

function python(gate: Gate, texts: PackageTexts, id: string, out: Declared, own: (f: string, v: unknown) => void) {
  const pyproject = toml(gate, texts.pyproject, MANIFEST_FILES.pyproject, id);
  if (pyproject) {
    const project = isObject(pyproject.project) ? pyproject.project : {};
    own("pyproject.toml", project.name);
    if (typeof project.name === "string" && PYPI_NAME.test(project.name)) out.packages.pypi = project.name;
    const listed = Array.isArray(project.dependencies) ? project.dependencies : [];
    for (const spec of listed.slice(0, MAX_ENTRIES)) {
      const name = typeof spec === "string" ? /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] : undefined;
      if (name) out.dependencies.push({ file: "pyproject.toml", name: pep503(name) });
    }
    const tool = isObject(pyproject.tool) ? pyproject.tool : {};
    const poetry = isObject(tool.poetry) && isObject(tool.poetry.dependencies) ? tool.poetry.dependencies : {};
    for (const name of Object.keys(poetry).slice(0, MAX_ENTRIES))
      out.dependencies.push({ file: "pyproject.toml", name: pep503(name) });
  }
  if (texts.requirements !== null) {
    for (const line of texts.requirements.split(/\r?\n/).slice(0, MAX_ENTRIES)) {
      const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:[=<>!~;[ ]|$)/.exec(line)?.[1];
      if (name) out.dependencies.push({ file: "requirements.txt", name: pep503(name) });
    }
  }
}

/** Dependencies named by the package files, as `{file, name}`, and their own names. */
export function dependencies(gate: Gate, texts: PackageTexts, id: string): Declared {
  const out: Declared = { dependencies: [], names: new Map(), packages: {} };
  /** A package's own name as a server name: the part after any scope or path, if it is one. */
  const own = (file: string, value: unknown) => {
    const name = typeof value === "string" ? value.slice(value.lastIndexOf("/") + 1) : "";
    if (ENTRY_NAME.test(name) && !name.includes(" ")) out.names.set(file, name);
  };
  const pkg = gate.json(texts.package, MANIFEST_FILES.package, id);
  if (pkg) own("package.json", pkg.name);
  if (pkg && pkg.private !== true && typeof pkg.name === "string" && NPM_NAME.test(pkg.name))
    out.packages.npm = pkg.name;
  if (pkg && isObject(pkg.dependencies))
    for (const name of Object.keys(pkg.dependencies).slice(0, MAX_ENTRIES))
      out.dependencies.push({ file: "package.json", name });
  python(gate, texts, id, out, own);
  if (texts.gomod !== null) {
    own("go.mod", /^module\s+(\S+)/m.exec(texts.gomod)?.[1]);
    for (const line of texts.gomod.split(/\r?\n/).slice(0, MAX_ENTRIES * 2)) {
      const name = /^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}\/[A-Za-z0-9._/-]+)\s+v\d/.exec(line)?.[1];
      if (name) out.dependencies.push({ file: "go.mod", name: name.replace(/\/v\d+$/, "") });
    }
  }
  const cargo = toml(gate, texts.cargo, MANIFEST_FILES.cargo, id);
  if (cargo && isObject(cargo.package)) own("Cargo.toml", cargo.package.name);
  if (cargo && isObject(cargo.dependencies))
    for (const name of Object.keys(cargo.dependencies).slice(0, MAX_ENTRIES))
      out.dependencies.push({ file: "Cargo.toml", name });
  return out;
}
