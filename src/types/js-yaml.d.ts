// js-yaml 3 ships no types; parse.ts describes the few members it uses (interface JsYaml).
declare module 'js-yaml';
