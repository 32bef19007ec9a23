/**
 * Every upstream beside the platform turned off, for a test's configuration or a child's
 * environment: no test reaches a public address. A test that wants one sets it to a fake.
 */
export const UPSTREAMS_OFF: Readonly<Record<string, string>> = Object.freeze({
  NPM_REGISTRY_URL: "off",
  PYPI_URL: "off",
  OCI_REGISTRY_URL: "off",
  MCP_REGISTRY_URL: "off",
  DEPSDEV_URL: "off",
  // A fixture's remotes are public names: never asked.
  REMOTE_PROBE_BUDGET_MS: "0",
});
