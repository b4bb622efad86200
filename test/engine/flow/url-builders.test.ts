import { describe, expect, it } from 'vitest';
import { securityFindings } from './flows-of.js';

/** A Spring controller sending a request to the URL built on line 12. */
const controller = (built: string) => `import org.springframework.web.bind.annotation.*;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.util.UriComponentsBuilder;
import java.net.URI;

@RestController
public class GeoClient {
    private final RestTemplate rest = new RestTemplate();

    @GetMapping("/geo")
    public String lookup(@RequestParam String city, @RequestParam String host) {
        URI uri = ${built};
        return rest.getForObject(uri, String.class);
    }
}
`;

const lines = (built: string) =>
  securityFindings('src/main/java/GeoClient.java', controller(built)).map((f) => `${f.line} ${f.ruleId}`);

describe('a URL built from a fixed scheme and host', () => {
  it('keeps that host through query parameters, paths and encoding (Spring, OkHttp)', () => {
    expect(
      lines(
        'UriComponentsBuilder.fromHttpUrl("https://geo.example.org/v1/search").queryParam("q", city).build().encode().toUri()',
      ),
    ).toEqual([]);
    expect(
      lines(
        'URI.create(HttpUrl.get("https://geo.example.org/v1").newBuilder().addPathSegment(city).build().toString())',
      ),
    ).toEqual([]);
  });

  it('is a request forgery when the input is the host, or fills a placeholder in it', () => {
    expect(
      lines('UriComponentsBuilder.fromHttpUrl("https://" + host + "/v1").queryParam("q", city).build().toUri()'),
    ).toEqual(['13 java.flow.ssrf']);
    expect(lines('UriComponentsBuilder.fromUriString("https://{h}/v1").buildAndExpand(host).toUri()')).toEqual([
      '13 java.flow.ssrf',
    ]);
  });
});

describe('a path resolved against a base', () => {
  const route = (url: string) => `import { Hono } from 'hono';
const app = new Hono();

app.get('/meta', async (c) => {
  const site = c.req.query('site') ?? 'https://example.org';
  const res = await fetch(${url});
  return c.json(await res.json());
});
export default app;
`;
  const lines = (url: string) => securityFindings('src/routes/meta.ts', route(url)).map((f) => `${f.line} ${f.ruleId}`);

  it('goes to the host of the base: one the request picks is a request forgery, one the code wrote is not', () => {
    expect(lines("new URL('/meta.json', site)")).toEqual(['6 js.flow.ssrf']);
    expect(lines("new URL('/meta.json', 'https://api.example.org')")).toEqual([]);
    expect(lines("new URL('https://api.example.org/meta.json', site)")).toEqual([]);
    // Input as the first argument may be a whole URL: the code's base then decides nothing.
    expect(lines("new URL(site, 'https://api.example.org/')")).toEqual(['6 js.flow.ssrf']);
  });
});
