/**
 * A raw HTTP/1 exchange over a socket on 127.0.0.1, for requests that
 * inject and fetch would normalise away (no Host, '..' in a path).
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

export function rawRequest(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
      const end = data.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(data.slice(0, end));
      if (end >= 0 && length && Buffer.byteLength(data.slice(end + 4)) >= Number(length[1])) socket.end();
    });
    socket.on('end', () => {
      const end = data.indexOf('\r\n\r\n');
      resolve({ status: Number(data.slice(9, 12)), head: data.slice(0, end), body: data.slice(end + 4) });
    });
    socket.on('error', reject);
  });
}
