/**
 * Checks a response against the service's own OpenAPI document: its status is documented for the
 * path, its media type is the documented one, a JSON body matches the documented schema (ajv,
 * JSON Schema 2020-12 as OpenAPI 3.1 uses it) and the headers a status promises are there.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

interface Media {
  schema?: object;
}
interface ResponseDoc {
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}
export interface OpenApiDocument {
  paths: Record<string, { get: { responses: Record<string, ResponseDoc> } }>;
  components: { schemas: { Error: object } };
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
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  /** The problems of `response` to a GET of `target` (path and query); empty when it conforms. */
  async problems(target: string, response: Response): Promise<string[]> {
    const path = new URL(target, "http://x").pathname;
    const status = String(response.status);
    const template = this.templates.find(([re]) => re.test(path))?.[1];
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const text = await response.text();
    if (template === undefined) {
      // Unknown paths answer the documented error shape.
      if (response.status !== 404 && response.status !== 400 && response.status !== 414) {
        return [`${path}: ${status} on an undocumented path`];
      }
      return this.body(this.document.components.schemas.Error, text, `${path} ${status}`);
    }
    const documented = this.document.paths[template]!.get.responses[status];
    if (!documented) return [`${template}: status ${status} is not documented`];
    const problems: string[] = [];
    for (const name of ["Retry-After", "ETag"]) {
      if (documented.headers?.[name] && !response.headers.has(name)) problems.push(`${template} ${status}: no ${name}`);
    }
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
