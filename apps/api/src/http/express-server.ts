import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * A node:http server for an Express app whose requests and responses are created with Express's
 * prototypes from the start.
 *
 * Express otherwise switches the prototype of every request and response it takes
 * (`Object.setPrototypeOf(req, app.request)`). V8 handles an object whose prototype changed after
 * it was built on its slow paths, and keeps what hangs off it alive through the next
 * young-generation collections. A bare Express hello-world spent about 170 µs of CPU per request
 * that way, and with this server 73 µs; its young collections promoted 3.6 MB each and paused
 * 4 ms, and now nothing and 0.5 ms (bench/results/profile-throughput.md).
 *
 * The server's request and response classes get Express's prototypes (their parent and the
 * app's own properties), and the app is pointed at them: Express's switch then finds the
 * prototype already in place and changes nothing. Call it once per app, before serving.
 */
export function createExpressServer(app: Express): Server {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse<Request extends IncomingMessage> extends ServerResponse<Request> {}
  app.request = asExpressPrototype(ExpressRequest.prototype, app.request);
  app.response = asExpressPrototype(ExpressResponse.prototype, app.response);
  return createServer({ IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse }, app);
}

/** Gives a class's prototype what Express's prototype has: its parent and its own properties. */
function asExpressPrototype<T extends object>(classPrototype: object, expressPrototype: T): T {
  Object.setPrototypeOf(classPrototype, Object.getPrototypeOf(expressPrototype) as object);
  Object.defineProperties(classPrototype, Object.getOwnPropertyDescriptors(expressPrototype));
  return classPrototype as T;
}
