/**
 * The command lines of the side-by-side tools (`bench:pair`): a path and numbers,
 * then a service's `KEY=value` settings, and after `vs` a second service's.
 */

/** `NAME=value` arguments are a service's environment; a path may hold `=` in its query. */
export const isSetting = (a: string) => /^[A-Z_][A-Z0-9_]*=/.test(a);

export interface Side {
  settings: string[];
  env: Record<string, string>;
}

function side(settings: string[]): Side {
  const pairs = settings.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]);
  return { settings, env: Object.fromEntries(pairs) };
}

export interface SideBySide {
  /** The arguments before `vs` that are not settings: the path, then numbers. */
  positional: string[];
  sides: Side[];
}

export function sidesOf(args: string[]): SideBySide {
  const split = args.indexOf("vs");
  const own = split === -1 ? args : args.slice(0, split);
  return {
    positional: own.filter((a) => !isSetting(a)),
    sides: [side(own.filter(isSetting)), ...(split === -1 ? [] : [side(args.slice(split + 1).filter(isSetting))])],
  };
}
