/** Where the owner file is and how much of it is read: apart from its parser, which the configuration never loads. */

/** The owner file's name when OWNER_FILE does not set another: hidden, at the root, YAML (JSON is YAML too). */
export const DEFAULT_OWNER_FILE = ".plugin-catalog.yml";
/** Bytes of an owner file read at most: its three keys fit in a few hundred. */
export const MAX_OWNER_BYTES = 4 * 1024;
