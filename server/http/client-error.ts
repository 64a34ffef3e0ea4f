import type { Duplex } from 'node:stream';
import { PROBLEMS, type ProblemCode } from '../../shared/api/problems';
import { problemTypeUrl } from './problem';

/**
 * What Node's HTTP parser refuses before Express sees a request (a URL or headers past 16 KiB,
 * a broken request line) is answered as a problem like every other refusal, where Node alone
 * sends a bare `431` or `400`, and the connection closed after it.
 */
export function answerClientError(baseUrl: () => string) {
  return (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void => {
    // Only what the HTTP parser refused gets an HTTP answer: a reset, a timeout (the request's,
    // the headers', a TLS handshake's) or a TLS failure has nobody to read one.
    if (!err.code?.startsWith('HPE_') || !socket.writable) {
      socket.destroy();
      return;
    }
    let code: ProblemCode = 'malformed-request';
    let detail = 'The request could not be read as HTTP.';
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      // The request line alone filling the parser's limit: no line end in what was read.
      const head = err.rawPacket?.subarray(0, 16 * 1024) ?? Buffer.alloc(0);
      const isUrl = !head.includes('\r\n') || head.indexOf('\r\n') > 8 * 1024;
      code = isUrl ? 'uri-too-long' : 'malformed-request';
      detail = isUrl
        ? 'The URL is longer than this server reads (16 KiB with the headers). Send long values in a JSON body.'
        : 'The request headers are larger than this server reads (16 KiB).';
    }
    const { status, title } = PROBLEMS[code];
    const body = JSON.stringify({
      title,
      status,
      detail,
      type: problemTypeUrl(baseUrl(), code),
      validation_errors: [],
    });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
