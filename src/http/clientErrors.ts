/**
 * Answers for the requests Node's HTTP parser refuses before any request
 * object exists (a bad method, a bare LF, HTTP/1.2, raw non-ASCII in the
 * path, headers over the size limit, a request that never completes): the
 * error body of docs/decisions.md "Errors", JSON or XML by Accept, with CORS
 * headers, written whole to the socket, which is then closed, so that every
 * answer has the catalog's shape (docs/decisions.md "Malformed requests";
 * https://nodejs.org/api/http.html#event-clienterror).
 *
 * Accept and Origin are read, as far as they arrived, from the bytes the
 * parser was given; the body never echoes any of them.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.js';
import { errorToJson, errorToXml } from './bodies/errorBody.js';
import { ALLOW } from './allowedMethods.js';
import type { CorsHeaders } from './corsHeaders.js';
import { errorRepresentation } from './formatChoice.js';
import { redactUrl } from './redact.js';

export interface ClientErrorLimits {
  /** Node's limit on the request line and headers together (the server's maxHeaderSize). */
  maxHeaderBytes: number;
  maxUrlLength: number;
  /** The server's headersTimeout, for the 408 message. */
  headersTimeoutMs: () => number;
}

type ClientError = Error & { code?: string; rawPacket?: Buffer };

/** What to fix, by llhttp's error code (node/deps/llhttp, "HPE_*") and the bytes it saw. */
function detailOf(code: string | undefined, head: string): string {
  // llhttp reports a bare LF as whatever it expected there (a version, a CR, ...).
  if (code !== 'HPE_INVALID_METHOD' && /(^|[^\r])\n/.test(head)) return 'every line of the request head must end in CR LF, not a bare LF';
  switch (code) {
    case 'HPE_INVALID_METHOD':
      return 'the method is not one HTTP defines; this API answers GET, HEAD and OPTIONS';
    case 'HPE_INVALID_VERSION':
      return "the protocol version must be 'HTTP/1.1' (or 'HTTP/1.0')";
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_STRICT':
      return 'every line of the request head must end in CR LF, not a bare LF or CR';
    case 'HPE_INVALID_URL':
      return "the request target must be printable ASCII: percent-encode spaces, control characters and characters outside ASCII as UTF-8 (e.g. %C3%A4 for 'ä')";
    case 'HPE_INVALID_CONSTANT':
      return "the request line must be 'GET <target> HTTP/1.1', one space apart, with the target percent-encoded (a space is %20)";
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'a header name or value has characters HTTP does not allow there';
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return 'the message framing (Content-Length, Transfer-Encoding) is invalid; this API takes no request body';
    default:
      return `it could not be parsed (${code ?? 'unknown error'})`;
  }
}

function errorOf(err: ClientError, limits: ClientErrorLimits, head: string): ApiError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ApiError.of('requestTimeout', Math.round(limits.headersTimeoutMs() / 1000));
  if (err.code === 'HPE_HEADER_OVERFLOW') return ApiError.of('headersTooLarge', limits.maxHeaderBytes, limits.maxUrlLength);
  return ApiError.of('malformedRequest', detailOf(err.code, head));
}

/** A header's value from the raw bytes of a request head, if it arrived. */
function headerIn(head: string, name: string): string | undefined {
  const match = new RegExp(`\\n${name}[ \\t]*:[ \\t]*([^\\r\\n]*)`, 'i').exec(head);
  return match?.[1]?.trim();
}

/** A whole HTTP response with our error body, for writing to a socket. */
function rawErrorResponse(error: ApiError, accept: string | undefined, origin: string | undefined, cors: CorsHeaders): string {
  const rep = errorRepresentation({ headers: accept === undefined ? {} : { accept } });
  const body = { status: error.status, name: error.errorName, message: error.message };
  const text = rep.format === 'xml' ? errorToXml(body) : errorToJson(body);
  const headers: Record<string, string | number> = {
    ...cors.of(origin),
    ...Object.fromEntries(Object.entries(error.headers).map(([k, v]) => [k.toLowerCase(), v])),
    'content-type': rep.contentType,
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${lines.join('')}\r\n${text}`;
}

/** The whole HTTP response for a parser-level error. */
export function clientErrorResponse(err: ClientError, limits: ClientErrorLimits, cors: CorsHeaders): string {
  // Only the start of a head is read: enough for Accept and Origin, never a whole large packet.
  const head = err.rawPacket?.subarray(0, 64 * 1024).toString('latin1') ?? '';
  return rawErrorResponse(errorOf(err, limits, head), headerIn(head, 'accept'), headerIn(head, 'origin'), cors);
}

/**
 * The server's `connect` listener: Node hands CONNECT requests (a proxy's
 * tunnel) to it, and without one closes the socket without an answer.
 */
export function createConnectHandler(cors: CorsHeaders): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    const error = ApiError.of('methodNotAllowed', 'CONNECT', redactUrl(req.url ?? '')).withHeaders({ Allow: ALLOW });
    socket.end(rawErrorResponse(error, req.headers.accept, req.headers.origin, cors), () => socket.destroy());
  };
}

/**
 * A request line whose version Node's parser lets through but this API does
 * not speak: llhttp accepts `HTTP/0.9` and `HTTP/2.0` (it refuses the other
 * versions, which reach the clientError listener). RFC 9112 section 2.3: a
 * server answers a major version it does not speak with an error; ours is
 * the 400 of docs/errors.md, as for every version but 1.0 and 1.1. Returns
 * true when it answered (and closes the connection).
 */
export function createVersionCheck(cors: CorsHeaders): (req: IncomingMessage) => boolean {
  return (req) => {
    if (req.httpVersionMajor === 1 && (req.httpVersionMinor === 1 || req.httpVersionMinor === 0)) return false;
    const error = ApiError.of('malformedRequest', detailOf('HPE_INVALID_VERSION', ''));
    const socket = req.socket;
    socket.end(rawErrorResponse(error, req.headers.accept, req.headers.origin, cors), () => socket.destroy());
    return true;
  };
}

/** The server's `clientError` listener. */
export function createClientErrorHandler(limits: ClientErrorLimits, cors: CorsHeaders): (err: ClientError, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection, or one already answering a request: nothing can be written.
    const busy = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err, limits, cors), () => socket.destroy());
  };
}
