// The baseline for image serving: a bare Node static file server, nothing between the request and
// the file. IMAGE_FILES names a JSON file mapping each image id to its file; GET /<id> sends it.
import { createReadStream, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const files = new Map(Object.entries(JSON.parse(readFileSync(process.env.IMAGE_FILES, 'utf8'))));
createServer((req, res) => {
  const file = files.get(req.url.slice(1));
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'image/jpeg' });
  createReadStream(file).pipe(res);
}).listen(Number(process.env.PORT), '127.0.0.1');
