// A module hook (node:module register): GitHub's workflow parser imports its JSON schema without an
// import attribute (`import schema from "../workflow-v1.0.min.json"`), which Node refuses
// (ERR_IMPORT_ATTRIBUTE_MISSING) outside a bundler. This hook loads such a JSON import as JSON, for
// the files of @actions/* only. (Jest loads them by itself.)
export async function load(url, context, nextLoad) {
  if (url.endsWith('.json') && url.includes('/node_modules/@actions/') && context.importAttributes?.type === undefined)
    return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
  return nextLoad(url, context);
}
