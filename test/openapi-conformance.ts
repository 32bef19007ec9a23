/**
 * Checks a response against the service's own OpenAPI document: its method and status are
 * documented for the path, its media type is the documented one, a JSON body matches the
 * documented schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it), the headers a status
 * requires are there, every header it sends is declared (beyond those the document says every
 * response carries), it has a Date, and a 304 has no Content-Type.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

interface Media {
  schema?: object;
}
interface ResponseDoc {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, Media>;
}
type Operation = { responses: Record<string, ResponseDoc> };
export interface OpenApiDocument {
  paths: Record<string, { get: Operation; head?: Operation; options?: Operation }>;
  components: { schemas: Record<string, object> };
}

/** Headers every response may carry, named once in the document's description, or the transport's own. */
const EVERYWHERE = new Set([
  "date",
  "content-length",
  "content-type",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "x-content-type-options",
  "content-security-policy",
  "referrer-policy",
  "access-control-allow-origin",
  "access-control-expose-headers",
]);

/** `schema` with every `$ref` to a component replaced by the component, for ajv to compile alone. */
export function dereferenced(schema: unknown, components: Record<string, object>): unknown {
  if (schema === null || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map((item) => dereferenced(item, components));
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    return components[ref.slice("#/components/schemas/".length)];
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, dereferenced(v, components)]));
}

/** A path template's matcher: `{name}` takes one segment. */
function matcher(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${escaped}$`);
}

export class Conformance {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly templates: Array<[RegExp, string]>;

  constructor(readonly document: OpenApiDocument) {
    this.templates = Object.keys(document.paths).map((template) => [matcher(template), template]);
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(dereferenced(schema, this.document.components.schemas) as object);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  /** The problems of `response` to a `method` request of `target` (path and query); empty when it conforms. */
  async problems(target: string, response: Response, method = "GET"): Promise<string[]> {
    const path = new URL(target, "http://x").pathname;
    const status = String(response.status);
    const template = this.templates.find(([re]) => re.test(path))?.[1];
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const text = await response.text();
    const general: string[] = [];
    if (!response.headers.has("date")) general.push(`${method} ${path} ${status}: no Date`);
    if (response.status === 304 && response.headers.has("content-type")) {
      general.push(`${method} ${path} 304: a Content-Type`);
    }
    if (template === undefined) {
      // Unknown paths answer the documented error shape.
      if (response.status !== 404 && response.status !== 400 && response.status !== 414) {
        return [...general, `${path}: ${status} on an undocumented path`];
      }
      if (method === "HEAD") return general;
      return [...general, ...this.body(this.document.components.schemas.Error!, text, `${path} ${status}`)];
    }
    const where = `${method} ${template} ${status}`;
    const operation = this.document.paths[template]![method.toLowerCase() as "get"];
    if (!operation) return [...general, `${method} ${template}: the method is not documented`];
    const documented = operation.responses[status];
    if (!documented) return [...general, `${where}: the status is not documented`];
    const problems = general;
    const declared = new Map(Object.entries(documented.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]));
    for (const [name, about] of declared) {
      if (about.required && !response.headers.has(name)) problems.push(`${where}: no ${name}`);
    }
    for (const name of response.headers.keys()) {
      if (!EVERYWHERE.has(name) && !declared.has(name)) problems.push(`${where}: ${name} is sent but not declared`);
    }
    if (method !== "GET") return text === "" ? problems : [...problems, `${where}: a body`];
    if (!documented.content)
      return text === "" ? problems : [...problems, `${template} ${status}: a body where none is documented`];
    const media = documented.content[type];
    if (!media)
      return [...problems, `${template} ${status}: ${type} is not documented (${Object.keys(documented.content)})`];
    if (type !== "application/json" || !media.schema) return problems;
    return [...problems, ...this.body(media.schema, text, `${template} ${status}`)];
  }

  private body(schema: object, text: string, where: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = this.validator(schema);
    if (validate(body)) return [];
    return [`${where}: ${this.ajv.errorsText(validate.errors)}`];
  }
}
