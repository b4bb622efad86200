import { describe, expect, it } from 'vitest';
import { flowsOf } from './flows-of.js';

describe('sinks of the web frameworks', () => {
  it("fiber's SendFile and Download take a file path (Go)", () => {
    const handler = (send: string) => `package web

import (
	"path"

	"github.com/gofiber/fiber/v2"
)

func Media(c *fiber.Ctx) error {
	target := path.Join("/srv/media", c.Query("name"))
	return c.${send}
}`;
    expect(flowsOf('go', handler('SendFile(target)'))).toEqual(['22@11<-10']);
    expect(flowsOf('go', handler('Download(target)'))).toEqual(['22@11<-10']);
    expect(flowsOf('go', handler('SendFile(path.Base(target))'))).toEqual([]);
  });

  it("a Spring ResponseEntity's body that starts with markup is a page (Java)", () => {
    const controller = (body: string) => `import org.springframework.http.*;
import org.springframework.web.bind.annotation.*;

@RestController
public class GreetingController {
    @GetMapping("/greeting")
    public ResponseEntity<String> greet(@RequestParam String name) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(${body});
    }
}`;
    expect(flowsOf('java', controller('"<p>Hi " + name + "</p>"'))).toEqual(['79@8<-7']);
    // Text that is no markup, or markup with the value escaped, is no page built from input.
    expect(flowsOf('java', controller('"Hi " + name'))).toEqual([]);
    expect(flowsOf('java', controller('"<p>Hi " + HtmlUtils.htmlEscape(name) + "</p>"'))).toEqual([]);
  });

  it("aiofiles' open takes a file path (Python)", () => {
    const handler = (path: string) => `import aiofiles
from aiohttp import web

async def tail(request: web.Request) -> web.Response:
    service = request.match_info["service"]
    async with aiofiles.open(${path}) as handle:
        return web.Response(text=await handle.read())`;
    expect(flowsOf('python', handler('f"/var/log/{service}.log"'))).toEqual(['22@6<-5']);
    expect(flowsOf('python', handler('"/var/log/app.log"'))).toEqual([]);
  });

  it("a servlet Part's write takes a file path, and the submitted file name is input (Java)", () => {
    const servlet = (name: string) => `import java.io.File;
import javax.servlet.http.*;

public class UploadServlet extends HttpServlet {
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws Exception {
        Part part = req.getPart("file");
        File dest = new File("/srv/uploads", ${name});
        part.write(dest.getAbsolutePath());
    }
}`;
    expect(flowsOf('java', servlet('part.getSubmittedFileName()'))).toEqual(['22@8<-6']);
    expect(flowsOf('java', servlet('java.util.UUID.randomUUID().toString()'))).toEqual([]);
  });

  it("Hono's c.html sends its text as the page, and its html`` template escapes (TypeScript)", () => {
    const route = (body: string) => `import { Hono } from 'hono';
import { html } from 'hono/html';
const app = new Hono();

app.get('/banner', (c) => {
  const msg = c.req.query('msg') ?? '';
  return c.html(${body});
});
export default app;`;
    expect(flowsOf('typescript', route(`'<div class="banner">' + msg + '</div>'`))).toEqual(['79@7<-6']);
    expect(flowsOf('typescript', route('html`<div class="banner">${msg}</div>`'))).toEqual([]);
  });
});
