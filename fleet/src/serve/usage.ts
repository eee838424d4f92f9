// The help text of `nsp-fleet serve`, apart from the command itself: cli.ts lists it in its usage
// without loading the web server (fastify), which it loads only when the command is `serve`.
export const SERVE_USAGE = `  serve [--port N] [--listen ADDR] [--log-dir DIR ...]
      a read-only web page over the fleet's database: every customer's stack, its runs, plans,
      drift, errors and logs, and charts; on 127.0.0.1:8080 unless told. Any other address needs
      FLEET_UI_TOKEN, which every request must then carry (open the page once as /?token=...)`;

export const DEFAULT_PORT = 8080;
