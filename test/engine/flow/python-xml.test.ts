import { describe, expect, it } from 'vitest';
import { flowsOf } from './flows-of.js';

/** A Flask view around a body; the body starts on line 7. */
const flask = (body: string) =>
  flowsOf(
    'python',
    `import xml.dom.minidom
import xml.sax.handler
from flask import request

@app.route("/x", methods=["POST"])
def view():
${body}
    return "done"
`,
  );

describe('Python XML parsers and external entities', () => {
  it('reports a SAX parser with external general entities turned on, given to minidom or used directly', () => {
    expect(
      flask(`    doc = request.form.get("doc")
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_external_ges, True)
    xml.dom.minidom.parseString(doc, parser)
    xml.dom.pulldom.parseString(doc, parser=parser)
    parser.parse(doc)`),
    ).toEqual(['611@10<-7', '611@11<-7', '611@12<-7']);
  });

  it('does not report the default parser, the feature turned off, or a constant document', () => {
    expect(
      flask(`    doc = request.form.get("doc")
    xml.dom.minidom.parseString(doc)
    parser = xml.sax.make_parser()
    xml.dom.minidom.parseString(doc, parser)
    parser.setFeature(xml.sax.handler.feature_external_ges, False)
    xml.dom.minidom.parseString(doc, parser)
    strict = xml.sax.make_parser()
    strict.setFeature(xml.sax.handler.feature_external_ges, True)
    xml.dom.minidom.parseString("<a/>", strict)`),
    ).toEqual([]);
  });
});
