// json-editor 2.17.2 (MIT, https://github.com/json-editor/json-editor), vendored unchanged:
// jsoneditor.js is its browser build, which puts JSONEditor on the global object when it is
// loaded as a module; this module hands it on as an ES export.
//
// One change of behaviour, made here: without DOMPurify, json-editor "cleans" every string
// value and heading by parsing it as HTML in a detached element, which loads images and runs
// their handlers, so a card named <img src=x onerror=…> would run code as the form opened it.
// Content is data: values stay exactly as written, and headings are set as text.
import "./jsoneditor.js";

export const { JSONEditor } = globalThis;

const asText = (value) => (typeof value === "string" ? value : String(value ?? ""));
JSONEditor.AbstractEditor.prototype.purify = (value) => value;
JSONEditor.AbstractEditor.prototype.cleanText = asText;
JSONEditor.AbstractTheme.prototype.cleanText = asText;
