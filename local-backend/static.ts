// Serves a built single-page app: files from `root`, index.html for unknown paths.
// Text files go out compressed (brotli or gzip, as the browser accepts), as a CDN would serve them.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { requestUrl, serverError } from "./http-util.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".map": "application/json",
};

const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".json",
  ".svg",
  ".txt",
  ".webmanifest",
  ".map",
]);

function encodingFor(req: IncomingMessage): "br" | "gzip" | null {
  const accepted = String(req.headers["accept-encoding"] ?? "");
  return /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
}

/** The request's path, percent-decoded, or null when it is not a valid target (`http://[`, `/%`). */
function decodedPath(req: IncomingMessage): string | null {
  const target = requestUrl(req, "http://x");
  if (target === null) return null;
  try {
    return decodeURIComponent(target.pathname);
  } catch {
    return null;
  }
}

/** On every answer of the web port: no other site may show the app in a frame (clickjacking). */
export const FRAME_HEADERS = {
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "frame-ancestors 'none'",
};

export function createStaticServer(rootDir: string): Server {
  const root = path.resolve(rootDir);
  const index = path.join(root, "index.html");
  // Compressed bodies by encoding, path and mtime (a rebuild changes the mtime).
  const compressed = new Map<string, Buffer>();
  const compress = (file: string, encoding: "br" | "gzip") => {
    const key = `${encoding}:${file}:${statSync(file).mtimeMs}`;
    let body = compressed.get(key);
    if (!body) {
      const raw = readFileSync(file);
      body = encoding === "br" ? brotliCompressSync(raw) : gzipSync(raw, { level: 9 });
      compressed.set(key, body);
    }
    return body;
  };
  return createServer((req, res) => {
    for (const [name, value] of Object.entries(FRAME_HEADERS)) res.setHeader(name, value);
    try {
      serve(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(serverError(error, `static ${req.url}`));
    }
  });

  function serve(req: IncomingMessage, res: ServerResponse) {
    const pathname = decodedPath(req);
    if (pathname === null) {
      res.writeHead(400, { "Content-Type": "text/plain" }).end("Bad request target");
      return;
    }
    let file = path.join(root, pathname);
    if (!file.startsWith(root + path.sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    const isFile = existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // Missing assets are real 404s; everything else is a client-side route.
      if (path.extname(pathname) && pathname.startsWith("/assets/")) {
        res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
        return;
      }
      file = index;
    }
    if (!existsSync(file)) {
      res
        .writeHead(404, { "Content-Type": "text/plain" })
        .end(`No ${path.relative(process.cwd(), index)}: build the app first`);
      return;
    }
    const hashed = file.includes(`${path.sep}assets${path.sep}`);
    const ext = path.extname(file).toLowerCase();
    const headers = {
      "Content-Type": TYPES[ext] ?? "application/octet-stream",
      "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    };
    const encoding = COMPRESSIBLE.has(ext) ? encodingFor(req) : null;
    if (encoding) {
      res
        .writeHead(200, { ...headers, "Content-Encoding": encoding, Vary: "Accept-Encoding" })
        .end(compress(file, encoding));
      return;
    }
    res.writeHead(200, COMPRESSIBLE.has(ext) ? { ...headers, Vary: "Accept-Encoding" } : headers);
    createReadStream(file)
      .on("error", () => res.destroy())
      .pipe(res);
  }
}
