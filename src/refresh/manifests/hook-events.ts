/** Hook events, from `hooks/hooks.json` (`{"hooks": {<Event>: […]}}`) or a plugin.json's inline hooks. */
import { type Gate, isObject, type Json, MAX_ENTRIES } from "./manifest-gate";

const HOOK_EVENT = /^[A-Z][A-Za-z]{1,39}$/;

/** The event names of a hooks configuration, with or without its `hooks` wrapper. */
export function hookEvents(gate: Gate, config: Json, file: string, id: string): string[] {
  const events = Object.keys(isObject(config.hooks) ? config.hooks : config)
    .filter((k) => k !== "description")
    .slice(0, MAX_ENTRIES);
  const valid = events.filter((e) => HOOK_EVENT.test(e));
  if (valid.length < events.length) gate.refuse(file, "hook event not accepted", id);
  return valid;
}
