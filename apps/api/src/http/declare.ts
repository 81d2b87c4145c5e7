import { runInRequest } from '@studioshot/observability';
import {
  Router,
  type ErrorRequestHandler,
  type IRouter,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { authOf } from '../middleware/auth.js';
import { callMiddleware, inOneLayer } from './one-layer.js';
import { parse } from '../validation.js';

/**
 * Every route is declared once, here: method, path, auth, the contract schemas of what it reads
 * and answers. The declaration registers the handler on the router (auth, then validation with
 * those schemas, then the handler, whose answer is typed by the response schemas) and is recorded,
 * so the OpenAPI document (`openapi.ts`) is generated from exactly the routes Express serves.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * required: a bearer access token (401 without one); the handler gets the user's id.
 * optional: a bearer token is one way in, the route checks another (logout: the refresh token).
 * none: public, or authorised by something else the route checks (an image's signed token).
 */
export type Auth = 'required' | 'optional' | 'none';

/** The document's tags, in its order. */
export const TAGS = {
  system: 'Health and service information',
  docs: 'This API description',
  auth: 'Accounts and sessions',
  users: 'The signed-in user',
  upload: 'Upload sessions and photos',
  training: 'Training models',
  generation: 'Generating headshots and the generated images',
  queue: 'Task queue',
  payments: 'Payments, credits and subscriptions',
  realtime: 'The realtime channel (/ws)',
  admin: 'The ops console (admins only)',
} as const;
export type Tag = keyof typeof TAGS;

/** A JSON answer: its contract schema, or the schema with a word on when it is given. */
export type JsonResponse = z.ZodType | { schema: z.ZodType; description: string };

/** An answer that is not JSON: an image, a page, a redirect, nothing at all. */
export interface OtherResponse {
  description: string;
  /** The media type of the body; none: the answer has no body (204, a redirect). */
  contentType?: string;
  /** Headers the answer carries (Location for a redirect). */
  headers?: Record<string, { description: string; schema?: Record<string, unknown> }>;
}

export type ResponseSpec = JsonResponse | OtherResponse;

export type BodyType = 'application/json' | 'multipart/form-data' | 'application/octet-stream';

export interface BodySpec {
  schema: z.ZodType;
  /** application/json unless said; several when the route reads each. */
  type?: BodyType | readonly BodyType[];
  /** What an absent body is read as (`{}`): the body may be left out. */
  whenAbsent?: unknown;
  /** Checked by the route itself (a file, a signed payload): documented, not parsed here. */
  validate?: false;
}

export interface RouteSpec {
  method: Method;
  /** Express style: `/models/generated-images/:id`. */
  path: string;
  summary: string;
  description?: string;
  tag: Tag;
  auth: Auth;
  /**
   * false: left out of the public API document. The ops console's calls: it answers 404 to
   * anyone else, and the document does not advertise it either.
   */
  published?: false;
  /** Path parameters, checked first (after auth). */
  params?: z.ZodObject;
  /** Query parameters. */
  query?: z.ZodObject;
  /** Request headers the route reads, by their documented name; each checked on its own. */
  headers?: z.ZodObject;
  body?: z.ZodType | BodySpec;
  /**
   * A malformed id names nothing: path parameters (or query parameters) that fail their schema
   * are answered 404 with this detail, rather than 422 naming the field.
   */
  notFound?: { params?: string; query?: string };
  /** Run after auth and the path parameters, before the query and body are read (multipart). */
  before?: readonly RequestHandler[];
  /** Every answer but errors, by status. */
  responses: Readonly<Record<number, ResponseSpec>>;
  /** The error statuses (body `{detail, code}`) besides those the declaration implies. */
  errors?: readonly number[];
  /** `x-` properties for the document's operation; a `SchemaRef` in them becomes a `$ref`. */
  extensions?: Readonly<Record<`x-${string}`, unknown>>;
}

/** A schema named in an extension (the /ws messages): a component, read as sent or as answered. */
export class SchemaRef {
  constructor(
    readonly schema: z.ZodType,
    readonly io: 'input' | 'output',
  ) {}
}

/** A declared route as recorded, for the document and the tests. */
export interface DeclaredRoute extends RouteSpec {
  /** The first success status of a JSON answer: what a handler's plain return value is sent as. */
  primaryStatus: number | undefined;
}

/** An answer with a status other than the route's first success status. */
export class Reply<S extends number = number, B = unknown> {
  constructor(
    readonly status: S,
    readonly body: B,
  ) {}
}
export const reply = <S extends number, B>(status: S, body: B) => new Reply(status, body);

type SchemaOf<T> = T extends z.ZodType
  ? T
  : T extends { schema: infer S extends z.ZodType }
    ? S
    : never;
type JsonStatuses<R> = { [K in keyof R]: [SchemaOf<R[K]>] extends [never] ? never : K }[keyof R];
type OtherStatuses<R> = Exclude<keyof R, JsonStatuses<R>>;
type BodyFor<R, K extends keyof R> = z.input<SchemaOf<R[K]>>;
type PrimaryBody<R> =
  200 extends JsonStatuses<R>
    ? BodyFor<R, 200>
    : 201 extends JsonStatuses<R>
      ? BodyFor<R, 201>
      : never;

/**
 * What a handler returns: the body of its first success status, a `reply(status, body)` for
 * another declared JSON status, or nothing when it answered itself (an image, a page, 204).
 */
export type Answer<R> =
  | PrimaryBody<R>
  | Reply<JsonStatuses<R> & number, BodyFor<R, JsonStatuses<R>>>
  | ([OtherStatuses<R>] extends [never] ? never : void);

type Parsed<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;
type ParsedBody<B> = B extends z.ZodType
  ? z.output<B>
  : B extends { validate: false }
    ? undefined
    : B extends { schema: infer S extends z.ZodType }
      ? z.output<S>
      : undefined;

export interface Context<S extends RouteSpec> {
  req: Request;
  res: Response;
  /** The signed-in user (auth: required). */
  userId: S['auth'] extends 'required' ? string : undefined;
  params: Parsed<S['params']>;
  query: Parsed<S['query']>;
  headers: Parsed<S['headers']>;
  body: ParsedBody<S['body']>;
}

export type Handler<S extends RouteSpec> = (
  ctx: Context<S>,
) => Answer<S['responses']> | Promise<Answer<S['responses']>>;

/** Told of an answer that does not match its declaration (tests turn this on). */
export type ResponseCheck = (route: DeclaredRoute, status: number, problem: string) => void;

export function isJsonResponse(spec: ResponseSpec): spec is JsonResponse {
  return spec instanceof z.ZodType || 'schema' in spec;
}
export function jsonSchemaOf(spec: ResponseSpec): z.ZodType | undefined {
  if (spec instanceof z.ZodType) return spec;
  return 'schema' in spec ? spec.schema : undefined;
}
export function bodySpecOf(body: RouteSpec['body']): BodySpec | undefined {
  if (body === undefined) return undefined;
  return body instanceof z.ZodType ? { schema: body } : body;
}
/** The media types a body is read in. */
export function bodyTypes(body: BodySpec): readonly BodyType[] {
  if (body.type === undefined) return ['application/json'];
  return typeof body.type === 'string' ? [body.type] : body.type;
}
/** Whether a request may leave the body out. */
export function bodyIsOptional(body: BodySpec): boolean {
  return 'whenAbsent' in body || body.schema.safeParse(undefined).success;
}

/**
 * The error statuses (body `{detail, code}`) a route may answer: those it declares, and those
 * every route of its kind can answer.
 */
export function errorStatuses(route: RouteSpec): number[] {
  const statuses = [...(route.errors ?? [])];
  const body = bodySpecOf(route.body);
  if (route.auth !== 'none') statuses.push(401);
  // A path parameter that is not valid percent-encoding.
  if (route.params || /:\w/.test(route.path)) statuses.push(400);
  if (route.notFound?.params || route.notFound?.query) statuses.push(404);
  if (body) {
    // Unreadable (malformed JSON or multipart, a body cut short), too large, a foreign charset
    // or Content-Encoding, and a field that fails its schema or holds a NUL character.
    statuses.push(400, 413, 422);
    if (bodyTypes(body).includes('application/json')) statuses.push(415);
  }
  // A query string is checked for NUL characters, and against its schema; so are headers.
  if (route.query || route.headers) statuses.push(422);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/** Express's `:name` path parameters as OpenAPI's `{name}`; nothing else of Express's syntax. */
export function openApiPath(path: string): string {
  if (/[*?(){}]/.test(path)) throw new Error(`declare: unsupported path syntax in ${path}`);
  return path.replace(/:(\w+)/g, '{$1}');
}

/** All the declared routes of one app, whichever router serves them. */
export class RouteTable {
  readonly routes: DeclaredRoute[] = [];

  constructor(
    private readonly options: {
      requireAuth: RequestHandler;
      /** Checks every JSON answer against its declaration (off in production: it costs). */
      checkResponses?: ResponseCheck;
    },
  ) {}

  /**
   * Mounted after the routers, before the error handler: with `checkResponses`, an error a
   * declared route answers with a status it does not declare is reported (tests: a 500).
   */
  checkErrors(): ErrorRequestHandler {
    const check = this.options.checkResponses;
    return (error: unknown, req, _res, next) => {
      const route = req.route ? this.declarations.get(req.route as object) : undefined;
      if (
        check &&
        route &&
        error instanceof AppError &&
        !errorStatuses(route).includes(error.status)
      ) {
        check(
          route,
          error.status,
          `error ${error.code} (${error.detail}) is not a declared answer`,
        );
      }
      next(error);
    };
  }

  /**
   * A router whose routes are declared into this table: its own Express router to mount, or
   * `target`'s routes (the app's own: a request then walks no nested router to reach them).
   */
  router(target: IRouter = Router()): DeclaringRouter {
    return new DeclaringRouter(this, this.options, target);
  }

  /** The declaration of each Express route, for the error check. */
  private readonly declarations = new WeakMap<object, DeclaredRoute>();

  record(route: DeclaredRoute, expressRoute?: object): void {
    if (expressRoute) this.declarations.set(expressRoute, route);
    // Parameter names aside: Express would route both to the first.
    const key = (r: DeclaredRoute) => `${r.method} ${r.path.replace(/:\w+/g, ':').toLowerCase()}`;
    if (this.routes.some((r) => key(r) === key(route))) {
      throw new Error(`declare: ${route.method} ${route.path} is declared twice`);
    }
    this.routes.push(route);
  }
}

/** A declared route without path parameters, served from DeclaringRouter's lookup. */
interface StaticRoute {
  /** Express's route object: the request metrics and the error check read it as `req.route`. */
  expressRoute: object;
  handler: RequestHandler;
}

export class DeclaringRouter {
  constructor(
    private readonly table: RouteTable,
    private readonly options: { requireAuth: RequestHandler; checkResponses?: ResponseCheck },
    /** Where the routes are registered: mount it on the app, unless it is the app. */
    readonly express: IRouter,
  ) {
    express.use(this.staticDispatch());
  }

  /** Routes without parameters by method (upper case) and normalised path. */
  private readonly staticRoutes = new Map<string, Map<string, StaticRoute>>();
  /** Every route declared here so far, as Express matches it, in order. */
  private readonly matchers: { method: string; pattern: RegExp }[] = [];

  /**
   * Serves a route without path parameters by one map lookup. Express walks its layers one by
   * one, matching each path: for a small read that walk cost more than the read itself. The
   * answer is the one Express would give: a route that an earlier declared route shadows is left
   * to Express, HEAD (answered by a GET route) goes through Express, and a request the map does
   * not know goes on to Express's layers unchanged.
   */
  private staticDispatch(): RequestHandler {
    return (req, res, next) => {
      const route = this.staticRoutes.get(req.method)?.get(normalisedPath(req.path));
      if (!route) return next();
      req.route = route.expressRoute;
      req.params = {};
      callMiddleware(route.handler, req, res, next);
    };
  }

  private serveStatic(method: string, path: string, route: StaticRoute): void {
    if (path.includes(':')) return;
    if (this.matchers.some((m) => m.method === method && m.pattern.test(path))) return;
    const byPath = this.staticRoutes.get(method) ?? new Map<string, StaticRoute>();
    byPath.set(normalisedPath(path), route);
    this.staticRoutes.set(method, byPath);
  }

  /** Declares a route and registers its handler. */
  route<const S extends RouteSpec>(spec: S, handler: Handler<S>): void {
    const route: DeclaredRoute = { ...spec, primaryStatus: primaryStatus(spec) };
    openApiPath(spec.path);
    const chain: RequestHandler[] = [];
    if (spec.auth === 'required') chain.push(this.options.requireAuth);
    if (spec.params) chain.push(checkParams(spec.params, spec.notFound?.params));
    chain.push(...(spec.before ?? []));
    chain.push(this.handle(route, handler));
    const expressRoute = this.express.route(spec.path);
    // One layer for the route's whole chain: Express's step between a route's handlers costs
    // more than the auth check it leads to.
    const layer = inOneLayer(chain);
    expressRoute[spec.method](layer);
    this.table.record(route, expressRoute);
    const method = spec.method.toUpperCase();
    this.serveStatic(method, spec.path, { expressRoute, handler: layer });
    this.matchers.push({ method, pattern: expressPattern(spec.path) });
  }

  private handle<S extends RouteSpec>(route: DeclaredRoute, handler: Handler<S>): RequestHandler {
    const { query, headers, notFound } = route;
    const body = bodySpecOf(route.body);
    const check = this.options.checkResponses;
    return async (req, res) => {
      const ctx = {
        req,
        res,
        userId: route.auth === 'required' ? authOf(req).userId : undefined,
        params: route.params ? (res.locals as Record<symbol, unknown>)[PARAMS] : {},
        query: query ? readPart(query, req.query, notFound?.query) : {},
        body:
          body && body.validate !== false
            ? parse(
                body.schema,
                req.body === undefined && 'whenAbsent' in body ? body.whenAbsent : req.body,
              )
            : undefined,
        headers: headers ? readHeaders(headers, req) : {},
      } as Context<S>;
      // Work the handler queues carries the request's id (the request log gave it one).
      const answer: unknown = await runInRequest(String(req.id), () => handler(ctx));
      if (answer === undefined) return;
      const { status, body: json } =
        answer instanceof Reply ? answer : { status: route.primaryStatus ?? 200, body: answer };
      if (check) checkAnswer(route, status, json, check);
      res.status(status).json(json);
    };
  }
}

/** A path as Express matches it: case-insensitive, one trailing slash ignored. */
function normalisedPath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** What Express matches for a declared path (`:name` segments only; openApiPath refuses more). */
function expressPattern(path: string): RegExp {
  const segments = path
    .split(/(:\w+)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('')}/?$`, 'i');
}

function primaryStatus(spec: RouteSpec): number | undefined {
  return Object.entries(spec.responses)
    .filter(([status, response]) => Number(status) < 300 && isJsonResponse(response))
    .map(([status]) => Number(status))
    .sort((a, b) => a - b)[0];
}

/** Where the path parameters, checked before the route's other handlers run, are kept for it. */
const PARAMS = Symbol('declared path parameters');

function checkParams(schema: z.ZodObject, notFound: string | undefined): RequestHandler {
  return (req, res, next) => {
    (res.locals as Record<symbol, unknown>)[PARAMS] = readPart(schema, req.params, notFound);
    next();
  };
}

function readPart(schema: z.ZodType, value: unknown, notFound: string | undefined): unknown {
  if (notFound === undefined) return parse(schema, value);
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('not_found', notFound);
  return result.data;
}

/** Each declared header on its own, so a bad one is answered in its schema's own words. */
function readHeaders(schema: z.ZodObject, req: Request): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const value = req.get(name);
    values[name] = value === undefined ? undefined : parse(field as z.ZodType, value);
  }
  return values;
}

/**
 * The answer as the client will read it (JSON), against the declared schema: a status not
 * declared, a field missing or of the wrong type, or a field the schema does not have (the
 * document says `additionalProperties: false` for answers).
 */
function checkAnswer(route: DeclaredRoute, status: number, body: unknown, check: ResponseCheck) {
  const spec = route.responses[status];
  const schema = spec && jsonSchemaOf(spec);
  if (!schema) return check(route, status, `status ${status} is not a declared JSON answer`);
  const sent: unknown = JSON.parse(JSON.stringify(body) ?? 'null');
  const result = schema.safeParse(sent);
  if (!result.success) return check(route, status, z.prettifyError(result.error));
  const extra = strippedField(sent, result.data, '');
  if (extra !== undefined) check(route, status, `${extra} is not in the schema`);
}

/** The path of a field of `sent` that parsing dropped (an object schema strips what it lacks). */
function strippedField(sent: unknown, parsed: unknown, path: string): string | undefined {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    for (const [i, item] of sent.entries()) {
      const found = strippedField(item, parsed[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof sent !== 'object' || sent === null || typeof parsed !== 'object' || parsed === null) {
    return undefined;
  }
  for (const [key, value] of Object.entries(sent)) {
    const at = path ? `${path}.${key}` : key;
    if (!(key in parsed)) return at;
    const found = strippedField(value, (parsed as Record<string, unknown>)[key], at);
    if (found !== undefined) return found;
  }
  return undefined;
}
