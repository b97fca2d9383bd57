#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 7349:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveBlockMap = __nccwpck_require__(7103);
var resolveBlockSeq = __nccwpck_require__(334);
var resolveFlowCollection = __nccwpck_require__(3142);

function resolveCollection(CN, ctx, token, onError, tagName, tag) {
    const coll = token.type === 'block-map'
        ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag)
        : token.type === 'block-seq'
            ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag)
            : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
    const Coll = coll.constructor;
    // If we got a tagName matching the class, or the tag name is '!',
    // then use the tagName from the node class used to create it.
    if (tagName === '!' || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
    }
    if (tagName)
        coll.tag = tagName;
    return coll;
}
function composeCollection(CN, ctx, token, props, onError) {
    const tagToken = props.tag;
    const tagName = !tagToken
        ? null
        : ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg));
    if (token.type === 'block-seq') {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken
            ? anchor.offset > tagToken.offset
                ? anchor
                : tagToken
            : (anchor ?? tagToken);
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
            const message = 'Missing newline after block sequence props';
            onError(lastProp, 'MISSING_CHAR', message);
        }
    }
    const expType = token.type === 'block-map'
        ? 'map'
        : token.type === 'block-seq'
            ? 'seq'
            : token.start.source === '{'
                ? 'map'
                : 'seq';
    // shortcut: check if it's a generic YAMLMap or YAMLSeq
    // before jumping into the custom tag logic.
    if (!tagToken ||
        !tagName ||
        tagName === '!' ||
        (tagName === YAMLMap.YAMLMap.tagName && expType === 'map') ||
        (tagName === YAMLSeq.YAMLSeq.tagName && expType === 'seq')) {
        return resolveCollection(CN, ctx, token, onError, tagName);
    }
    let tag = ctx.schema.tags.find(t => t.tag === tagName && t.collection === expType);
    if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
            ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
            tag = kt;
        }
        else {
            if (kt) {
                onError(tagToken, 'BAD_COLLECTION_TYPE', `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? 'scalar'}`, true);
            }
            else {
                onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, true);
            }
            return resolveCollection(CN, ctx, token, onError, tagName);
        }
    }
    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
    const res = tag.resolve?.(coll, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg), ctx.options) ?? coll;
    const node = identity.isNode(res)
        ? res
        : new Scalar.Scalar(res);
    node.range = coll.range;
    node.tag = tagName;
    if (tag?.format)
        node.format = tag.format;
    return node;
}

exports.composeCollection = composeCollection;


/***/ }),

/***/ 3683:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Document = __nccwpck_require__(3021);
var composeNode = __nccwpck_require__(5937);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);

function composeDoc(options, directives, { offset, start, value, end }, onError) {
    const opts = Object.assign({ _directives: directives }, options);
    const doc = new Document.Document(undefined, opts);
    const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
    };
    const props = resolveProps.resolveProps(start, {
        indicator: 'doc-start',
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
    });
    if (props.found) {
        doc.directives.docStart = true;
        if (value &&
            (value.type === 'block-map' || value.type === 'block-seq') &&
            !props.hasNewline)
            onError(props.end, 'MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker');
    }
    // @ts-expect-error If Contents is set, let's trust the user
    doc.contents = value
        ? composeNode.composeNode(ctx, value, props, onError)
        : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
    const contentEnd = doc.contents.range[2];
    const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
    if (re.comment)
        doc.comment = re.comment;
    doc.range = [offset, contentEnd, re.offset];
    return doc;
}

exports.composeDoc = composeDoc;


/***/ }),

/***/ 5937:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var composeCollection = __nccwpck_require__(7349);
var composeScalar = __nccwpck_require__(5413);
var resolveEnd = __nccwpck_require__(7788);
var utilEmptyScalarPosition = __nccwpck_require__(2599);

const CN = { composeNode, composeEmptyNode };
function composeNode(ctx, token, props, onError) {
    const atKey = ctx.atKey;
    const { spaceBefore, comment, anchor, tag } = props;
    let node;
    let isSrcToken = true;
    switch (token.type) {
        case 'alias':
            node = composeAlias(ctx, token, onError);
            if (anchor || tag)
                onError(token, 'ALIAS_PROPS', 'An alias node must not specify any properties');
            break;
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'block-scalar':
            node = composeScalar.composeScalar(ctx, token, tag, onError);
            if (anchor)
                node.anchor = anchor.source.substring(1);
            break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection':
            try {
                node = composeCollection.composeCollection(CN, ctx, token, props, onError);
                if (anchor)
                    node.anchor = anchor.source.substring(1);
            }
            catch (error) {
                // Almost certainly here due to a stack overflow
                const message = error instanceof Error ? error.message : String(error);
                onError(token, 'RESOURCE_EXHAUSTION', message);
            }
            break;
        default: {
            const message = token.type === 'error'
                ? token.message
                : `Unsupported token (type: ${token.type})`;
            onError(token, 'UNEXPECTED_TOKEN', message);
            isSrcToken = false;
        }
    }
    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
    if (anchor && node.anchor === '')
        onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    if (atKey &&
        ctx.options.stringKeys &&
        (!identity.isScalar(node) ||
            typeof node.value !== 'string' ||
            (node.tag && node.tag !== 'tag:yaml.org,2002:str'))) {
        const msg = 'With stringKeys, all keys must be strings';
        onError(tag ?? token, 'NON_STRING_KEY', msg);
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        if (token.type === 'scalar' && token.source === '')
            node.comment = comment;
        else
            node.commentBefore = comment;
    }
    // @ts-expect-error Type checking misses meaning of isSrcToken
    if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
    return node;
}
function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
    const token = {
        type: 'scalar',
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ''
    };
    const node = composeScalar.composeScalar(ctx, token, tag, onError);
    if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === '')
            onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        node.comment = comment;
        node.range[2] = end;
    }
    return node;
}
function composeAlias({ options }, { offset, source, end }, onError) {
    const alias = new Alias.Alias(source.substring(1));
    if (alias.source === '')
        onError(offset, 'BAD_ALIAS', 'Alias cannot be an empty string');
    if (alias.source.endsWith(':'))
        onError(offset + source.length - 1, 'BAD_ALIAS', 'Alias ending in : is ambiguous', true);
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
    alias.range = [offset, valueEnd, re.offset];
    if (re.comment)
        alias.comment = re.comment;
    return alias;
}

exports.composeEmptyNode = composeEmptyNode;
exports.composeNode = composeNode;


/***/ }),

/***/ 5413:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);

function composeScalar(ctx, token, tagToken, onError) {
    const { value, type, comment, range } = token.type === 'block-scalar'
        ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError)
        : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
    const tagName = tagToken
        ? ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg))
        : null;
    let tag;
    if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
    }
    else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
    else if (token.type === 'scalar')
        tag = findScalarTagByTest(ctx, value, token, onError);
    else
        tag = ctx.schema[identity.SCALAR];
    let scalar;
    try {
        const res = tag.resolve(value, msg => onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
    }
    catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg);
        scalar = new Scalar.Scalar(value);
    }
    scalar.range = range;
    scalar.source = value;
    if (type)
        scalar.type = type;
    if (tagName)
        scalar.tag = tagName;
    if (tag.format)
        scalar.format = tag.format;
    if (comment)
        scalar.comment = comment;
    return scalar;
}
function findScalarTagByName(schema, value, tagName, tagToken, onError) {
    if (tagName === '!')
        return schema[identity.SCALAR]; // non-specific tag
    const matchWithTest = [];
    for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
            if (tag.default && tag.test)
                matchWithTest.push(tag);
            else
                return tag;
        }
    }
    for (const tag of matchWithTest)
        if (tag.test?.test(value))
            return tag;
    const kt = schema.knownTags[tagName];
    if (kt && !kt.collection) {
        // Ensure that the known tag is available for stringifying,
        // but does not get used by default.
        schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
        return kt;
    }
    onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, tagName !== 'tag:yaml.org,2002:str');
    return schema[identity.SCALAR];
}
function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
    const tag = schema.tags.find(tag => (tag.default === true || (atKey && tag.default === 'key')) &&
        tag.test?.test(value)) || schema[identity.SCALAR];
    if (schema.compat) {
        const compat = schema.compat.find(tag => tag.default && tag.test?.test(value)) ??
            schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
            const ts = directives.tagString(tag.tag);
            const cs = directives.tagString(compat.tag);
            const msg = `Value may be parsed as either ${ts} or ${cs}`;
            onError(token, 'TAG_RESOLVE_FAILED', msg, true);
        }
    }
    return tag;
}

exports.composeScalar = composeScalar;


/***/ }),

/***/ 9984:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var directives = __nccwpck_require__(1342);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var identity = __nccwpck_require__(1127);
var composeDoc = __nccwpck_require__(3683);
var resolveEnd = __nccwpck_require__(7788);

function getErrorPos(src) {
    if (typeof src === 'number')
        return [src, src + 1];
    if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
    const { offset, source } = src;
    return [offset, offset + (typeof source === 'string' ? source.length : 1)];
}
function parsePrelude(prelude) {
    let comment = '';
    let atComment = false;
    let afterEmptyLine = false;
    for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
            case '#':
                comment +=
                    (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') +
                        (source.substring(1) || ' ');
                atComment = true;
                afterEmptyLine = false;
                break;
            case '%':
                if (prelude[i + 1]?.[0] !== '#')
                    i += 1;
                atComment = false;
                break;
            default:
                // This may be wrong after doc-end, but in that case it doesn't matter
                if (!atComment)
                    afterEmptyLine = true;
                atComment = false;
        }
    }
    return { comment, afterEmptyLine };
}
/**
 * Compose a stream of CST nodes into a stream of YAML Documents.
 *
 * ```ts
 * import { Composer, Parser } from 'yaml'
 *
 * const src: string = ...
 * const tokens = new Parser().parse(src)
 * const docs = new Composer().compose(tokens)
 * ```
 */
class Composer {
    constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
            const pos = getErrorPos(source);
            if (warning)
                this.warnings.push(new errors.YAMLWarning(pos, code, message));
            else
                this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        this.directives = new directives.Directives({ version: options.version || '1.2' });
        this.options = options;
    }
    decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        //console.log({ dc: doc.comment, prelude, comment })
        if (comment) {
            const dc = doc.contents;
            if (afterDoc) {
                doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
            }
            else if (afterEmptyLine || doc.directives.docStart || !dc) {
                doc.commentBefore = comment;
            }
            else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
                let it = dc.items[0];
                if (identity.isPair(it))
                    it = it.key;
                const cb = it.commentBefore;
                it.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
            else {
                const cb = dc.commentBefore;
                dc.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
        }
        if (afterDoc) {
            for (let i = 0; i < this.errors.length; ++i)
                doc.errors.push(this.errors[i]);
            for (let i = 0; i < this.warnings.length; ++i)
                doc.warnings.push(this.warnings[i]);
        }
        else {
            doc.errors = this.errors;
            doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
    }
    /**
     * Current stream status information.
     *
     * Mostly useful at the end of input for an empty stream.
     */
    streamInfo() {
        return {
            comment: parsePrelude(this.prelude).comment,
            directives: this.directives,
            errors: this.errors,
            warnings: this.warnings
        };
    }
    /**
     * Compose tokens into documents.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
            yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
    }
    /** Advance the composer by one CST token. */
    *next(token) {
        if (node_process.env.LOG_STREAM)
            console.dir(token, { depth: null });
        switch (token.type) {
            case 'directive':
                this.directives.add(token.source, (offset, message, warning) => {
                    const pos = getErrorPos(token);
                    pos[0] += offset;
                    this.onError(pos, 'BAD_DIRECTIVE', message, warning);
                });
                this.prelude.push(token.source);
                this.atDirectives = true;
                break;
            case 'document': {
                const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
                if (this.atDirectives && !doc.directives.docStart)
                    this.onError(token, 'MISSING_CHAR', 'Missing directives-end/doc-start indicator line');
                this.decorate(doc, false);
                if (this.doc)
                    yield this.doc;
                this.doc = doc;
                this.atDirectives = false;
                break;
            }
            case 'byte-order-mark':
            case 'space':
                break;
            case 'comment':
            case 'newline':
                this.prelude.push(token.source);
                break;
            case 'error': {
                const msg = token.source
                    ? `${token.message}: ${JSON.stringify(token.source)}`
                    : token.message;
                const error = new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg);
                if (this.atDirectives || !this.doc)
                    this.errors.push(error);
                else
                    this.doc.errors.push(error);
                break;
            }
            case 'doc-end': {
                if (!this.doc) {
                    const msg = 'Unexpected doc-end without preceding document';
                    this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg));
                    break;
                }
                this.doc.directives.docEnd = true;
                const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
                this.decorate(this.doc, true);
                if (end.comment) {
                    const dc = this.doc.comment;
                    this.doc.comment = dc ? `${dc}\n${end.comment}` : end.comment;
                }
                this.doc.range[2] = end.offset;
                break;
            }
            default:
                this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', `Unsupported token ${token.type}`));
        }
    }
    /**
     * Call at end of input to yield any remaining document.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
            this.decorate(this.doc, true);
            yield this.doc;
            this.doc = null;
        }
        else if (forceDoc) {
            const opts = Object.assign({ _directives: this.directives }, this.options);
            const doc = new Document.Document(undefined, opts);
            if (this.atDirectives)
                this.onError(endOffset, 'MISSING_CHAR', 'Missing directives-end indicator line');
            doc.range = [0, endOffset, endOffset];
            this.decorate(doc, false);
            yield doc;
        }
    }
}

exports.Composer = Composer;


/***/ }),

/***/ 7103:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilFlowIndentCheck = __nccwpck_require__(4051);
var utilMapIncludes = __nccwpck_require__(1187);

const startColMsg = 'All mapping items must start at the same column';
function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
    const map = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    let offset = bm.offset;
    let commentEnd = null;
    for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        // key properties
        const keyProps = resolveProps.resolveProps(start, {
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: bm.indent,
            startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
            if (key) {
                if (key.type === 'block-seq')
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key');
                else if ('indent' in key && key.indent !== bm.indent)
                    onError(offset, 'BAD_INDENT', startColMsg);
            }
            if (!keyProps.anchor && !keyProps.tag && !sep) {
                commentEnd = keyProps.end;
                if (keyProps.comment) {
                    if (map.comment)
                        map.comment += '\n' + keyProps.comment;
                    else
                        map.comment = keyProps.comment;
                }
                continue;
            }
            if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
                onError(key ?? start[start.length - 1], 'MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line');
            }
        }
        else if (keyProps.found?.indent !== bm.indent) {
            onError(offset, 'BAD_INDENT', startColMsg);
        }
        // key value
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key
            ? composeNode(ctx, key, keyProps, onError)
            : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
            onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
        // value properties
        const valueProps = resolveProps.resolveProps(sep ?? [], {
            indicator: 'map-value-ind',
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: bm.indent,
            startOnNewline: !key || key.type === 'block-scalar'
        });
        offset = valueProps.end;
        if (valueProps.found) {
            if (implicitKey) {
                if (value?.type === 'block-map' && !valueProps.hasNewline)
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings');
                if (ctx.options.strict &&
                    keyProps.start < valueProps.found.offset - 1024)
                    onError(keyNode.range, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key');
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
            if (ctx.schema.compat)
                utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
            offset = valueNode.range[2];
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
        else {
            // key with no value
            if (implicitKey)
                onError(keyNode.range, 'MISSING_CHAR', 'Implicit map keys need to be followed by map values');
            if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
    }
    if (commentEnd && commentEnd < offset)
        onError(commentEnd, 'IMPOSSIBLE', 'Map comment with trailing content');
    map.range = [bm.offset, offset, commentEnd ?? offset];
    return map;
}

exports.resolveBlockMap = resolveBlockMap;


/***/ }),

/***/ 8913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function resolveBlockScalar(ctx, scalar, onError) {
    const start = scalar.offset;
    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
    if (!header)
        return { value: '', type: null, comment: '', range: [start, start, start] };
    const type = header.mode === '>' ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
    const lines = scalar.source ? splitLines(scalar.source) : [];
    // determine the end of content & start of chomping
    let chompStart = lines.length;
    for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === '' || content === '\r')
            chompStart = i;
        else
            break;
    }
    // shortcut for empty contents
    if (chompStart === 0) {
        const value = header.chomp === '+' && lines.length > 0
            ? '\n'.repeat(Math.max(1, lines.length - 1))
            : '';
        let end = start + header.length;
        if (scalar.source)
            end += scalar.source.length;
        return { value, type, comment: header.comment, range: [start, end, end] };
    }
    // find the indentation level to trim from start
    let trimIndent = scalar.indent + header.indent;
    let offset = scalar.offset + header.length;
    let contentStart = 0;
    for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === '' || content === '\r') {
            if (header.indent === 0 && indent.length > trimIndent)
                trimIndent = indent.length;
        }
        else {
            if (indent.length < trimIndent) {
                const message = 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator';
                onError(offset + indent.length, 'MISSING_CHAR', message);
            }
            if (header.indent === 0)
                trimIndent = indent.length;
            contentStart = i;
            if (trimIndent === 0 && !ctx.atRoot) {
                const message = 'Block scalar values in collections must be indented';
                onError(offset, 'BAD_INDENT', message);
            }
            break;
        }
        offset += indent.length + content.length + 1;
    }
    // include trailing more-indented empty lines in content
    for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
            chompStart = i + 1;
    }
    let value = '';
    let sep = '';
    let prevMoreIndented = false;
    // leading whitespace is kept intact
    for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + '\n';
    for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === '\r';
        if (crlf)
            content = content.slice(0, -1);
        /* istanbul ignore if already caught in lexer */
        if (content && indent.length < trimIndent) {
            const src = header.indent
                ? 'explicit indentation indicator'
                : 'first line';
            const message = `Block scalar lines must not be less indented than their ${src}`;
            onError(offset - content.length - (crlf ? 2 : 1), 'BAD_INDENT', message);
            indent = '';
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
        }
        else if (indent.length > trimIndent || content[0] === '\t') {
            // more-indented content within a folded block
            if (sep === ' ')
                sep = '\n';
            else if (!prevMoreIndented && sep === '\n')
                sep = '\n\n';
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
            prevMoreIndented = true;
        }
        else if (content === '') {
            // empty line
            if (sep === '\n')
                value += '\n';
            else
                sep = '\n';
        }
        else {
            value += sep + content;
            sep = ' ';
            prevMoreIndented = false;
        }
    }
    switch (header.chomp) {
        case '-':
            break;
        case '+':
            for (let i = chompStart; i < lines.length; ++i)
                value += '\n' + lines[i][0].slice(trimIndent);
            if (value[value.length - 1] !== '\n')
                value += '\n';
            break;
        default:
            value += '\n';
    }
    const end = start + header.length + scalar.source.length;
    return { value, type, comment: header.comment, range: [start, end, end] };
}
function parseBlockScalarHeader({ offset, props }, strict, onError) {
    /* istanbul ignore if should not happen */
    if (props[0].type !== 'block-scalar-header') {
        onError(props[0], 'IMPOSSIBLE', 'Block scalar header not found');
        return null;
    }
    const { source } = props[0];
    const mode = source[0];
    let indent = 0;
    let chomp = '';
    let error = -1;
    for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === '-' || ch === '+'))
            chomp = ch;
        else {
            const n = Number(ch);
            if (!indent && n)
                indent = n;
            else if (error === -1)
                error = offset + i;
        }
    }
    if (error !== -1)
        onError(error, 'UNEXPECTED_TOKEN', `Block scalar header includes extra characters: ${source}`);
    let hasSpace = false;
    let comment = '';
    let length = source.length;
    for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
            case 'space':
                hasSpace = true;
            // fallthrough
            case 'newline':
                length += token.source.length;
                break;
            case 'comment':
                if (strict && !hasSpace) {
                    const message = 'Comments must be separated from other tokens by white space characters';
                    onError(token, 'MISSING_CHAR', message);
                }
                length += token.source.length;
                comment = token.source.substring(1);
                break;
            case 'error':
                onError(token, 'UNEXPECTED_TOKEN', token.message);
                length += token.source.length;
                break;
            /* istanbul ignore next should not happen */
            default: {
                const message = `Unexpected token in block scalar header: ${token.type}`;
                onError(token, 'UNEXPECTED_TOKEN', message);
                const ts = token.source;
                if (ts && typeof ts === 'string')
                    length += ts.length;
            }
        }
    }
    return { mode, indent, chomp, comment, length };
}
/** @returns Array of lines split up as `[indent, content]` */
function splitLines(source) {
    const split = source.split(/\n( *)/);
    const first = split[0];
    const m = first.match(/^( *)/);
    const line0 = m?.[1]
        ? [m[1], first.slice(m[1].length)]
        : ['', first];
    const lines = [line0];
    for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
    return lines;
}

exports.resolveBlockScalar = resolveBlockScalar;


/***/ }),

/***/ 334:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var YAMLSeq = __nccwpck_require__(2223);
var resolveProps = __nccwpck_require__(4631);
var utilFlowIndentCheck = __nccwpck_require__(4051);

function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
    const seq = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = bs.offset;
    let commentEnd = null;
    for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
            indicator: 'seq-item-ind',
            next: value,
            offset,
            onError,
            parentIndent: bs.indent,
            startOnNewline: true
        });
        if (!props.found) {
            if (props.anchor || props.tag || value) {
                if (value?.type === 'block-seq')
                    onError(props.end, 'BAD_INDENT', 'All sequence items must start at the same column');
                else
                    onError(offset, 'MISSING_CHAR', 'Sequence item without - indicator');
            }
            else {
                commentEnd = props.end;
                if (props.comment)
                    seq.comment = props.comment;
                continue;
            }
        }
        const node = value
            ? composeNode(ctx, value, props, onError)
            : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
    }
    seq.range = [bs.offset, offset, commentEnd ?? offset];
    return seq;
}

exports.resolveBlockSeq = resolveBlockSeq;


/***/ }),

/***/ 7788:
/***/ ((__unused_webpack_module, exports) => {



function resolveEnd(end, offset, reqSpace, onError) {
    let comment = '';
    if (end) {
        let hasSpace = false;
        let sep = '';
        for (const token of end) {
            const { source, type } = token;
            switch (type) {
                case 'space':
                    hasSpace = true;
                    break;
                case 'comment': {
                    if (reqSpace && !hasSpace)
                        onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                    const cb = source.substring(1) || ' ';
                    if (!comment)
                        comment = cb;
                    else
                        comment += sep + cb;
                    sep = '';
                    break;
                }
                case 'newline':
                    if (comment)
                        sep += source;
                    hasSpace = true;
                    break;
                default:
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${type} at node end`);
            }
            offset += source.length;
        }
    }
    return { comment, offset };
}

exports.resolveEnd = resolveEnd;


/***/ }),

/***/ 3142:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilMapIncludes = __nccwpck_require__(1187);

const blockMsg = 'Block collections are not allowed within flow collections';
const isBlock = (token) => token && (token.type === 'block-map' || token.type === 'block-seq');
function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
    const isMap = fc.start.source === '{';
    const fcName = isMap ? 'flow map' : 'flow sequence';
    const NodeClass = (tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq));
    const coll = new NodeClass(ctx.schema);
    coll.flow = true;
    const atRoot = ctx.atRoot;
    if (atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = fc.offset + fc.start.source.length;
    for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps.resolveProps(start, {
            flow: fcName,
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
        });
        if (!props.found) {
            if (!props.anchor && !props.tag && !sep && !value) {
                if (i === 0 && props.comma)
                    onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
                else if (i < fc.items.length - 1)
                    onError(props.start, 'UNEXPECTED_TOKEN', `Unexpected empty item in ${fcName}`);
                if (props.comment) {
                    if (coll.comment)
                        coll.comment += '\n' + props.comment;
                    else
                        coll.comment = props.comment;
                }
                offset = props.end;
                continue;
            }
            if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
                onError(key, // checked by containsNewline()
                'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
        }
        if (i === 0) {
            if (props.comma)
                onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
        }
        else {
            if (!props.comma)
                onError(props.start, 'MISSING_CHAR', `Missing , between ${fcName} items`);
            if (props.comment) {
                let prevItemComment = '';
                loop: for (const st of start) {
                    switch (st.type) {
                        case 'comma':
                        case 'space':
                            break;
                        case 'comment':
                            prevItemComment = st.source.substring(1);
                            break loop;
                        default:
                            break loop;
                    }
                }
                if (prevItemComment) {
                    let prev = coll.items[coll.items.length - 1];
                    if (identity.isPair(prev))
                        prev = prev.value ?? prev.key;
                    if (prev.comment)
                        prev.comment += '\n' + prevItemComment;
                    else
                        prev.comment = prevItemComment;
                    props.comment = props.comment.substring(prevItemComment.length + 1);
                }
            }
        }
        if (!isMap && !sep && !props.found) {
            // item is a value in a seq
            // → key & sep are empty, start does not include ? or :
            const valueNode = value
                ? composeNode(ctx, value, props, onError)
                : composeEmptyNode(ctx, props.end, sep, null, props, onError);
            coll.items.push(valueNode);
            offset = valueNode.range[2];
            if (isBlock(value))
                onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
        }
        else {
            // item is a key+value pair
            // key value
            ctx.atKey = true;
            const keyStart = props.end;
            const keyNode = key
                ? composeNode(ctx, key, props, onError)
                : composeEmptyNode(ctx, keyStart, start, null, props, onError);
            if (isBlock(key))
                onError(keyNode.range, 'BLOCK_IN_FLOW', blockMsg);
            ctx.atKey = false;
            // value properties
            const valueProps = resolveProps.resolveProps(sep ?? [], {
                flow: fcName,
                indicator: 'map-value-ind',
                next: value,
                offset: keyNode.range[2],
                onError,
                parentIndent: fc.indent,
                startOnNewline: false
            });
            if (valueProps.found) {
                if (!isMap && !props.found && ctx.options.strict) {
                    if (sep)
                        for (const st of sep) {
                            if (st === valueProps.found)
                                break;
                            if (st.type === 'newline') {
                                onError(st, 'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
                                break;
                            }
                        }
                    if (props.start < valueProps.found.offset - 1024)
                        onError(valueProps.found, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key');
                }
            }
            else if (value) {
                if ('source' in value && value.source?.[0] === ':')
                    onError(value, 'MISSING_CHAR', `Missing space after : in ${fcName}`);
                else
                    onError(valueProps.start, 'MISSING_CHAR', `Missing , or : between ${fcName} items`);
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : valueProps.found
                    ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError)
                    : null;
            if (valueNode) {
                if (isBlock(value))
                    onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
            }
            else if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            if (isMap) {
                const map = coll;
                if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
                    onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
                map.items.push(pair);
            }
            else {
                const map = new YAMLMap.YAMLMap(ctx.schema);
                map.flow = true;
                map.items.push(pair);
                const endRange = (valueNode ?? keyNode).range;
                map.range = [keyNode.range[0], endRange[1], endRange[2]];
                coll.items.push(map);
            }
            offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
    }
    const expectedEnd = isMap ? '}' : ']';
    const [ce, ...ee] = fc.end;
    let cePos = offset;
    if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
    else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot
            ? `${name} must end with a ${expectedEnd}`
            : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? 'MISSING_CHAR' : 'BAD_INDENT', msg);
        if (ce && ce.source.length !== 1)
            ee.unshift(ce);
    }
    if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
            if (coll.comment)
                coll.comment += '\n' + end.comment;
            else
                coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
    }
    else {
        coll.range = [fc.offset, cePos, cePos];
    }
    return coll;
}

exports.resolveFlowCollection = resolveFlowCollection;


/***/ }),

/***/ 6842:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var resolveEnd = __nccwpck_require__(7788);

function resolveFlowScalar(scalar, strict, onError) {
    const { offset, type, source, end } = scalar;
    let _type;
    let value;
    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
    switch (type) {
        case 'scalar':
            _type = Scalar.Scalar.PLAIN;
            value = plainValue(source, _onError);
            break;
        case 'single-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_SINGLE;
            value = singleQuotedValue(source, _onError);
            break;
        case 'double-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_DOUBLE;
            value = doubleQuotedValue(source, _onError);
            break;
        /* istanbul ignore next should not happen */
        default:
            onError(scalar, 'UNEXPECTED_TOKEN', `Expected a flow scalar value, but found: ${type}`);
            return {
                value: '',
                type: null,
                comment: '',
                range: [offset, offset + source.length, offset + source.length]
            };
    }
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
    return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
    };
}
function plainValue(source, onError) {
    let badChar = '';
    switch (source[0]) {
        /* istanbul ignore next should not happen */
        case '\t':
            badChar = 'a tab character';
            break;
        case ',':
            badChar = 'flow indicator character ,';
            break;
        case '%':
            badChar = 'directive indicator character %';
            break;
        case '|':
        case '>': {
            badChar = `block scalar indicator ${source[0]}`;
            break;
        }
        case '@':
        case '`': {
            badChar = `reserved character ${source[0]}`;
            break;
        }
    }
    if (badChar)
        onError(0, 'BAD_SCALAR_START', `Plain value cannot start with ${badChar}`);
    return unfoldLines(source);
}
function singleQuotedValue(source, onError) {
    if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, 'MISSING_CHAR', "Missing closing 'quote");
    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
}
function unfoldLines(source) {
    const line = /(.*?)\r?\n/sy;
    let match = line.exec(source);
    if (!match)
        return source;
    /**
     * The negative lookbehinds in these RegExps are to
     * prevent causing a polynomial search time in certain cases.
     *
     * The try-catch is for Safari < 16.4 and other old browsers:
     * https://caniuse.com/js-regexp-lookbehind
     */
    let trimEnd, trimBoth;
    try {
        trimEnd = new RegExp('(?<![ \t])[ \t]+$');
        trimBoth = new RegExp('^[ \t]+|(?<![ \t])[ \t]+$', 'g');
    }
    catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
    }
    let res = match[1].replace(trimEnd, '');
    let sep = ' ';
    let pos = line.lastIndex;
    while ((match = line.exec(source))) {
        const lm = match[1].replace(trimBoth, '');
        if (lm === '') {
            if (sep === '\n')
                res += sep;
            else
                sep = '\n';
        }
        else {
            res += sep + lm;
            sep = ' ';
        }
        pos = line.lastIndex;
    }
    const last = /[ \t]*(.*)/sy;
    last.lastIndex = pos;
    match = last.exec(source);
    return res + sep + (match?.[1] ?? '');
}
function doubleQuotedValue(source, onError) {
    let res = '';
    for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === '\r' && source[i + 1] === '\n')
            continue;
        if (ch === '\n') {
            const { fold, offset } = foldNewline(source, i);
            res += fold;
            i = offset;
        }
        else if (ch === '\\') {
            let next = source[++i];
            const cc = escapeCodes[next];
            if (cc)
                res += cc;
            else if (next === '\n') {
                // skip escaped newlines, but still trim the following line
                next = source[i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === '\r' && source[i + 1] === '\n') {
                // skip escaped CRLF newlines, but still trim the following line
                next = source[++i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === 'x' || next === 'u' || next === 'U') {
                const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
                res += parseCharCode(source, i + 1, length, onError);
                i += length;
            }
            else {
                const raw = source.substr(i - 1, 2);
                onError(i - 1, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
                res += raw;
            }
        }
        else if (ch === ' ' || ch === '\t') {
            // trim trailing whitespace
            const wsStart = i;
            let next = source[i + 1];
            while (next === ' ' || next === '\t')
                next = source[++i + 1];
            if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n'))
                res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        }
        else {
            res += ch;
        }
    }
    if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, 'MISSING_CHAR', 'Missing closing "quote');
    return res;
}
/**
 * Fold a single newline into a space, multiple newlines to N - 1 newlines.
 * Presumes `source[offset] === '\n'`
 */
function foldNewline(source, offset) {
    let fold = '';
    let ch = source[offset + 1];
    while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        if (ch === '\r' && source[offset + 2] !== '\n')
            break;
        if (ch === '\n')
            fold += '\n';
        offset += 1;
        ch = source[offset + 1];
    }
    if (!fold)
        fold = ' ';
    return { fold, offset };
}
const escapeCodes = {
    '0': '\0', // null character
    a: '\x07', // bell character
    b: '\b', // backspace
    e: '\x1b', // escape character
    f: '\f', // form feed
    n: '\n', // line feed
    r: '\r', // carriage return
    t: '\t', // horizontal tab
    v: '\v', // vertical tab
    N: '\u0085', // Unicode next line
    _: '\u00a0', // Unicode non-breaking space
    L: '\u2028', // Unicode line separator
    P: '\u2029', // Unicode paragraph separator
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    '\t': '\t'
};
function parseCharCode(source, offset, length, onError) {
    const cc = source.substr(offset, length);
    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
    const code = ok ? parseInt(cc, 16) : NaN;
    try {
        return String.fromCodePoint(code);
    }
    catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
        return raw;
    }
}

exports.resolveFlowScalar = resolveFlowScalar;


/***/ }),

/***/ 4631:
/***/ ((__unused_webpack_module, exports) => {



function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
    let spaceBefore = false;
    let atNewline = startOnNewline;
    let hasSpace = startOnNewline;
    let comment = '';
    let commentSep = '';
    let hasNewline = false;
    let reqSpace = false;
    let tab = null;
    let anchor = null;
    let tag = null;
    let newlineAfterProp = null;
    let comma = null;
    let found = null;
    let start = null;
    for (const token of tokens) {
        if (reqSpace) {
            if (token.type !== 'space' &&
                token.type !== 'newline' &&
                token.type !== 'comma')
                onError(token.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
            reqSpace = false;
        }
        if (tab) {
            if (atNewline && token.type !== 'comment' && token.type !== 'newline') {
                onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
            }
            tab = null;
        }
        switch (token.type) {
            case 'space':
                // At the doc level, tabs at line start may be parsed
                // as leading white space rather than indentation.
                // In a flow collection, only the parser handles indent.
                if (!flow &&
                    (indicator !== 'doc-start' || next?.type !== 'flow-collection') &&
                    token.source.includes('\t')) {
                    tab = token;
                }
                hasSpace = true;
                break;
            case 'comment': {
                if (!hasSpace)
                    onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                const cb = token.source.substring(1) || ' ';
                if (!comment)
                    comment = cb;
                else
                    comment += commentSep + cb;
                commentSep = '';
                atNewline = false;
                break;
            }
            case 'newline':
                if (atNewline) {
                    if (comment)
                        comment += token.source;
                    else if (!found || indicator !== 'seq-item-ind')
                        spaceBefore = true;
                }
                else
                    commentSep += token.source;
                atNewline = true;
                hasNewline = true;
                if (anchor || tag)
                    newlineAfterProp = token;
                hasSpace = true;
                break;
            case 'anchor':
                if (anchor)
                    onError(token, 'MULTIPLE_ANCHORS', 'A node can have at most one anchor');
                if (token.source.endsWith(':'))
                    onError(token.offset + token.source.length - 1, 'BAD_ALIAS', 'Anchor ending in : is ambiguous', true);
                anchor = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            case 'tag': {
                if (tag)
                    onError(token, 'MULTIPLE_TAGS', 'A node can have at most one tag');
                tag = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            }
            case indicator:
                // Could here handle preceding comments differently
                if (anchor || tag)
                    onError(token, 'BAD_PROP_ORDER', `Anchors and tags must be after the ${token.source} indicator`);
                if (found)
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.source} in ${flow ?? 'collection'}`);
                found = token;
                atNewline =
                    indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
                hasSpace = false;
                break;
            case 'comma':
                if (flow) {
                    if (comma)
                        onError(token, 'UNEXPECTED_TOKEN', `Unexpected , in ${flow}`);
                    comma = token;
                    atNewline = false;
                    hasSpace = false;
                    break;
                }
            // else fallthrough
            default:
                onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.type} token`);
                atNewline = false;
                hasSpace = false;
        }
    }
    const last = tokens[tokens.length - 1];
    const end = last ? last.offset + last.source.length : offset;
    if (reqSpace &&
        next &&
        next.type !== 'space' &&
        next.type !== 'newline' &&
        next.type !== 'comma' &&
        (next.type !== 'scalar' || next.source !== '')) {
        onError(next.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
    }
    if (tab &&
        ((atNewline && tab.indent <= parentIndent) ||
            next?.type === 'block-map' ||
            next?.type === 'block-seq'))
        onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
    return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
    };
}

exports.resolveProps = resolveProps;


/***/ }),

/***/ 9499:
/***/ ((__unused_webpack_module, exports) => {



function containsNewline(key) {
    if (!key)
        return null;
    switch (key.type) {
        case 'alias':
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            if (key.source.includes('\n'))
                return true;
            if (key.end)
                for (const st of key.end)
                    if (st.type === 'newline')
                        return true;
            return false;
        case 'flow-collection':
            for (const it of key.items) {
                for (const st of it.start)
                    if (st.type === 'newline')
                        return true;
                if (it.sep)
                    for (const st of it.sep)
                        if (st.type === 'newline')
                            return true;
                if (containsNewline(it.key) || containsNewline(it.value))
                    return true;
            }
            return false;
        default:
            return true;
    }
}

exports.containsNewline = containsNewline;


/***/ }),

/***/ 2599:
/***/ ((__unused_webpack_module, exports) => {



function emptyScalarPosition(offset, before, pos) {
    if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
            let st = before[i];
            switch (st.type) {
                case 'space':
                case 'comment':
                case 'newline':
                    offset -= st.source.length;
                    continue;
            }
            // Technically, an empty scalar is immediately after the last non-empty
            // node, but it's more useful to place it after any whitespace.
            st = before[++i];
            while (st?.type === 'space') {
                offset += st.source.length;
                st = before[++i];
            }
            break;
        }
    }
    return offset;
}

exports.emptyScalarPosition = emptyScalarPosition;


/***/ }),

/***/ 4051:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var utilContainsNewline = __nccwpck_require__(9499);

function flowIndentCheck(indent, fc, onError) {
    if (fc?.type === 'flow-collection') {
        const end = fc.end[0];
        if (end.indent === indent &&
            (end.source === ']' || end.source === '}') &&
            utilContainsNewline.containsNewline(fc)) {
            const msg = 'Flow end indicator should be more indented than parent';
            onError(end, 'BAD_INDENT', msg, true);
        }
    }
}

exports.flowIndentCheck = flowIndentCheck;


/***/ }),

/***/ 1187:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

function mapIncludes(ctx, items, search) {
    const { uniqueKeys } = ctx.options;
    if (uniqueKeys === false)
        return false;
    const isEqual = typeof uniqueKeys === 'function'
        ? uniqueKeys
        : (a, b) => a === b || (identity.isScalar(a) && identity.isScalar(b) && a.value === b.value);
    return items.some(pair => isEqual(pair.key, search));
}

exports.mapIncludes = mapIncludes;


/***/ }),

/***/ 3021:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var toJS = __nccwpck_require__(4043);
var Schema = __nccwpck_require__(5840);
var stringifyDocument = __nccwpck_require__(6829);
var anchors = __nccwpck_require__(1596);
var applyReviver = __nccwpck_require__(3661);
var createNode = __nccwpck_require__(2404);
var directives = __nccwpck_require__(1342);

class Document {
    constructor(value, replacer, options) {
        /** A comment before this Document */
        this.commentBefore = null;
        /** A comment immediately after this Document */
        this.comment = null;
        /** Errors encountered during parsing. */
        this.errors = [];
        /** Warnings encountered during parsing. */
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === 'function' || Array.isArray(replacer)) {
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const opt = Object.assign({
            intAsBigInt: false,
            keepSourceTokens: false,
            logLevel: 'warn',
            prettyErrors: true,
            strict: true,
            stringKeys: false,
            uniqueKeys: true,
            version: '1.2'
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
            this.directives = options._directives.atDocument();
            if (this.directives.yaml.explicit)
                version = this.directives.yaml.version;
        }
        else
            this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        // @ts-expect-error We can't really know that this matches Contents.
        this.contents =
            value === undefined ? null : this.createNode(value, _replacer, options);
    }
    /**
     * Create a deep copy of this Document and its contents.
     *
     * Custom Node values that inherit from `Object` still refer to their original instances.
     */
    clone() {
        const copy = Object.create(Document.prototype, {
            [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
            copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        // @ts-expect-error We can't really know that this matches Contents.
        copy.contents = identity.isNode(this.contents)
            ? this.contents.clone(copy.schema)
            : this.contents;
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** Adds a value to the document. */
    add(value) {
        if (assertCollection(this.contents))
            this.contents.add(value);
    }
    /** Adds a value to the document. */
    addIn(path, value) {
        if (assertCollection(this.contents))
            this.contents.addIn(path, value);
    }
    /**
     * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
     *
     * If `node` already has an anchor, `name` is ignored.
     * Otherwise, the `node.anchor` value will be set to `name`,
     * or if an anchor with that name is already present in the document,
     * `name` will be used as a prefix for a new unique anchor.
     * If `name` is undefined, the generated anchor will use 'a' as a prefix.
     */
    createAlias(node, name) {
        if (!node.anchor) {
            const prev = anchors.anchorNames(this);
            node.anchor =
                // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
                !name || prev.has(name) ? anchors.findNewAnchor(name || 'a', prev) : name;
        }
        return new Alias.Alias(node.anchor);
    }
    createNode(value, replacer, options) {
        let _replacer = undefined;
        if (typeof replacer === 'function') {
            value = replacer.call({ '': value }, '', value);
            _replacer = replacer;
        }
        else if (Array.isArray(replacer)) {
            const keyToStr = (v) => typeof v === 'number' || v instanceof String || v instanceof Number;
            const asStr = replacer.filter(keyToStr).map(String);
            if (asStr.length > 0)
                replacer = replacer.concat(asStr);
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(this, 
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        anchorPrefix || 'a');
        const ctx = {
            aliasDuplicateObjects: aliasDuplicateObjects ?? true,
            keepUndefined: keepUndefined ?? false,
            onAnchor,
            onTagObj,
            replacer: _replacer,
            schema: this.schema,
            sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
            node.flow = true;
        setAnchors();
        return node;
    }
    /**
     * Convert a key and a value into a `Pair` using the current schema,
     * recursively wrapping all values as `Scalar` or `Collection` nodes.
     */
    createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
            if (this.contents == null)
                return false;
            // @ts-expect-error Presumed impossible if Strict extends false
            this.contents = null;
            return true;
        }
        return assertCollection(this.contents)
            ? this.contents.deleteIn(path)
            : false;
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    get(key, keepScalar) {
        return identity.isCollection(this.contents)
            ? this.contents.get(key, keepScalar)
            : undefined;
    }
    /**
     * Returns item at `path`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
            return !keepScalar && identity.isScalar(this.contents)
                ? this.contents.value
                : this.contents;
        return identity.isCollection(this.contents)
            ? this.contents.getIn(path, keepScalar)
            : undefined;
    }
    /**
     * Checks if the document includes a value with the key `key`.
     */
    has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
    }
    /**
     * Checks if the document includes a value at `path`.
     */
    hasIn(path) {
        if (Collection.isEmptyPath(path))
            return this.contents !== undefined;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    set(key, value) {
        if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, [key], value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.set(key, value);
        }
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = value;
        }
        else if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.setIn(path, value);
        }
    }
    /**
     * Change the YAML version and schema used by the document.
     * A `null` version disables support for directives, explicit tags, anchors, and aliases.
     * It also requires the `schema` option to be given as a `Schema` instance value.
     *
     * Overrides all previously set schema options.
     */
    setSchema(version, options = {}) {
        if (typeof version === 'number')
            version = String(version);
        let opt;
        switch (version) {
            case '1.1':
                if (this.directives)
                    this.directives.yaml.version = '1.1';
                else
                    this.directives = new directives.Directives({ version: '1.1' });
                opt = { resolveKnownTags: false, schema: 'yaml-1.1' };
                break;
            case '1.2':
            case 'next':
                if (this.directives)
                    this.directives.yaml.version = version;
                else
                    this.directives = new directives.Directives({ version });
                opt = { resolveKnownTags: true, schema: 'core' };
                break;
            case null:
                if (this.directives)
                    delete this.directives;
                opt = null;
                break;
            default: {
                const sv = JSON.stringify(version);
                throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
            }
        }
        // Not using `instanceof Schema` to allow for duck typing
        if (options.schema instanceof Object)
            this.schema = options.schema;
        else if (opt)
            this.schema = new Schema.Schema(Object.assign(opt, options));
        else
            throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
    }
    // json & jsonArg are only used from toJSON()
    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
            anchors: new Map(),
            doc: this,
            keep: !json,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
    /**
     * A JSON representation of the document `contents`.
     *
     * @param jsonArg Used by `JSON.stringify` to indicate the array index or
     *   property name.
     */
    toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
    }
    /** A YAML representation of the document. */
    toString(options = {}) {
        if (this.errors.length > 0)
            throw new Error('Document with errors cannot be stringified');
        if ('indent' in options &&
            (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
            const s = JSON.stringify(options.indent);
            throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
    }
}
function assertCollection(contents) {
    if (identity.isCollection(contents))
        return true;
    throw new Error('Expected a YAML collection as document contents');
}

exports.Document = Document;


/***/ }),

/***/ 1596:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

/**
 * Verify that the input string is a valid anchor.
 *
 * Will throw on errors.
 */
function anchorIsValid(anchor) {
    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
    }
    return true;
}
function anchorNames(root) {
    const anchors = new Set();
    visit.visit(root, {
        Value(_key, node) {
            if (node.anchor)
                anchors.add(node.anchor);
        }
    });
    return anchors;
}
/** Find a new anchor name with the given `prefix` and a one-indexed suffix. */
function findNewAnchor(prefix, exclude) {
    for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
            return name;
    }
}
function createNodeAnchors(doc, prefix) {
    const aliasObjects = [];
    const sourceObjects = new Map();
    let prevAnchors = null;
    return {
        onAnchor: (source) => {
            aliasObjects.push(source);
            prevAnchors ?? (prevAnchors = anchorNames(doc));
            const anchor = findNewAnchor(prefix, prevAnchors);
            prevAnchors.add(anchor);
            return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
            for (const source of aliasObjects) {
                const ref = sourceObjects.get(source);
                if (typeof ref === 'object' &&
                    ref.anchor &&
                    (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
                    ref.node.anchor = ref.anchor;
                }
                else {
                    const error = new Error('Failed to resolve repeated object (this should not happen)');
                    error.source = source;
                    throw error;
                }
            }
        },
        sourceObjects
    };
}

exports.anchorIsValid = anchorIsValid;
exports.anchorNames = anchorNames;
exports.createNodeAnchors = createNodeAnchors;
exports.findNewAnchor = findNewAnchor;


/***/ }),

/***/ 3661:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Applies the JSON.parse reviver algorithm as defined in the ECMA-262 spec,
 * in section 24.5.1.1 "Runtime Semantics: InternalizeJSONProperty" of the
 * 2021 edition: https://tc39.es/ecma262/#sec-json.parse
 *
 * Includes extensions for handling Map and Set objects.
 */
function applyReviver(reviver, obj, key, val) {
    if (val && typeof val === 'object') {
        if (Array.isArray(val)) {
            for (let i = 0, len = val.length; i < len; ++i) {
                const v0 = val[i];
                const v1 = applyReviver(reviver, val, String(i), v0);
                // eslint-disable-next-line @typescript-eslint/no-array-delete
                if (v1 === undefined)
                    delete val[i];
                else if (v1 !== v0)
                    val[i] = v1;
            }
        }
        else if (val instanceof Map) {
            for (const k of Array.from(val.keys())) {
                const v0 = val.get(k);
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    val.delete(k);
                else if (v1 !== v0)
                    val.set(k, v1);
            }
        }
        else if (val instanceof Set) {
            for (const v0 of Array.from(val)) {
                const v1 = applyReviver(reviver, val, v0, v0);
                if (v1 === undefined)
                    val.delete(v0);
                else if (v1 !== v0) {
                    val.delete(v0);
                    val.add(v1);
                }
            }
        }
        else {
            for (const [k, v0] of Object.entries(val)) {
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    delete val[k];
                else if (v1 !== v0)
                    val[k] = v1;
            }
        }
    }
    return reviver.call(obj, key, val);
}

exports.applyReviver = applyReviver;


/***/ }),

/***/ 2404:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

const defaultTagPrefix = 'tag:yaml.org,2002:';
function findTagObject(value, tagName, tags) {
    if (tagName) {
        const match = tags.filter(t => t.tag === tagName);
        const tagObj = match.find(t => !t.format) ?? match[0];
        if (!tagObj)
            throw new Error(`Tag ${tagName} not found`);
        return tagObj;
    }
    return tags.find(t => t.identify?.(value) && !t.format);
}
function createNode(value, tagName, ctx) {
    if (identity.isDocument(value))
        value = value.contents;
    if (identity.isNode(value))
        return value;
    if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
    }
    if (value instanceof String ||
        value instanceof Number ||
        value instanceof Boolean ||
        (typeof BigInt !== 'undefined' && value instanceof BigInt) // not supported everywhere
    ) {
        // https://tc39.es/ecma262/#sec-serializejsonproperty
        value = value.valueOf();
    }
    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
    // Detect duplicate references to the same object & use Alias nodes for all
    // after first. The `ref` wrapper allows for circular references to resolve.
    let ref = undefined;
    if (aliasDuplicateObjects && value && typeof value === 'object') {
        ref = sourceObjects.get(value);
        if (ref) {
            ref.anchor ?? (ref.anchor = onAnchor(value));
            return new Alias.Alias(ref.anchor);
        }
        else {
            ref = { anchor: null, node: null };
            sourceObjects.set(value, ref);
        }
    }
    if (tagName?.startsWith('!!'))
        tagName = defaultTagPrefix + tagName.slice(2);
    let tagObj = findTagObject(value, tagName, schema.tags);
    if (!tagObj) {
        if (value && typeof value.toJSON === 'function') {
            // eslint-disable-next-line @typescript-eslint/no-unsafe-call
            value = value.toJSON();
        }
        if (!value || typeof value !== 'object') {
            const node = new Scalar.Scalar(value);
            if (ref)
                ref.node = node;
            return node;
        }
        tagObj =
            value instanceof Map
                ? schema[identity.MAP]
                : Symbol.iterator in Object(value)
                    ? schema[identity.SEQ]
                    : schema[identity.MAP];
    }
    if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
    }
    const node = tagObj?.createNode
        ? tagObj.createNode(ctx.schema, value, ctx)
        : typeof tagObj?.nodeClass?.from === 'function'
            ? tagObj.nodeClass.from(ctx.schema, value, ctx)
            : new Scalar.Scalar(value);
    if (tagName)
        node.tag = tagName;
    else if (!tagObj.default)
        node.tag = tagObj.tag;
    if (ref)
        ref.node = node;
    return node;
}

exports.createNode = createNode;


/***/ }),

/***/ 1342:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

const escapeChars = {
    '!': '%21',
    ',': '%2C',
    '[': '%5B',
    ']': '%5D',
    '{': '%7B',
    '}': '%7D'
};
const escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, ch => escapeChars[ch]);
class Directives {
    constructor(yaml, tags) {
        /**
         * The directives-end/doc-start marker `---`. If `null`, a marker may still be
         * included in the document's stringified representation.
         */
        this.docStart = null;
        /** The doc-end marker `...`.  */
        this.docEnd = false;
        this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, Directives.defaultTags, tags);
    }
    clone() {
        const copy = new Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
    }
    /**
     * During parsing, get a Directives instance for the current document and
     * update the stream state according to the current version's spec.
     */
    atDocument() {
        const res = new Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
            case '1.1':
                this.atNextDocument = true;
                break;
            case '1.2':
                this.atNextDocument = false;
                this.yaml = {
                    explicit: Directives.defaultYaml.explicit,
                    version: '1.2'
                };
                this.tags = Object.assign({}, Directives.defaultTags);
                break;
        }
        return res;
    }
    /**
     * @param onError - May be called even if the action was successful
     * @returns `true` on success
     */
    add(line, onError) {
        if (this.atNextDocument) {
            this.yaml = { explicit: Directives.defaultYaml.explicit, version: '1.1' };
            this.tags = Object.assign({}, Directives.defaultTags);
            this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
            case '%TAG': {
                if (parts.length !== 2) {
                    onError(0, '%TAG directive should contain exactly two parts');
                    if (parts.length < 2)
                        return false;
                }
                const [handle, prefix] = parts;
                this.tags[handle] = prefix;
                return true;
            }
            case '%YAML': {
                this.yaml.explicit = true;
                if (parts.length !== 1) {
                    onError(0, '%YAML directive should contain exactly one part');
                    return false;
                }
                const [version] = parts;
                if (version === '1.1' || version === '1.2') {
                    this.yaml.version = version;
                    return true;
                }
                else {
                    const isValid = /^\d+\.\d+$/.test(version);
                    onError(6, `Unsupported YAML version ${version}`, isValid);
                    return false;
                }
            }
            default:
                onError(0, `Unknown directive ${name}`, true);
                return false;
        }
    }
    /**
     * Resolves a tag, matching handles to those defined in %TAG directives.
     *
     * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
     *   `'!local'` tag, or `null` if unresolvable.
     */
    tagName(source, onError) {
        if (source === '!')
            return '!'; // non-specific tag
        if (source[0] !== '!') {
            onError(`Not a valid tag: ${source}`);
            return null;
        }
        if (source[1] === '<') {
            const verbatim = source.slice(2, -1);
            if (verbatim === '!' || verbatim === '!!') {
                onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
                return null;
            }
            if (source[source.length - 1] !== '>')
                onError('Verbatim tags must end with a >');
            return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
            onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
            try {
                return prefix + decodeURIComponent(suffix);
            }
            catch (error) {
                onError(String(error));
                return null;
            }
        }
        if (handle === '!')
            return source; // local tag
        onError(`Could not resolve tag: ${source}`);
        return null;
    }
    /**
     * Given a fully resolved tag, returns its printable string form,
     * taking into account current tag prefixes and defaults.
     */
    tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
            if (tag.startsWith(prefix))
                return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === '!' ? tag : `!<${tag}>`;
    }
    toString(doc) {
        const lines = this.yaml.explicit
            ? [`%YAML ${this.yaml.version || '1.2'}`]
            : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
            const tags = {};
            visit.visit(doc.contents, (_key, node) => {
                if (identity.isNode(node) && node.tag)
                    tags[node.tag] = true;
            });
            tagNames = Object.keys(tags);
        }
        else
            tagNames = [];
        for (const [handle, prefix] of tagEntries) {
            if (handle === '!!' && prefix === 'tag:yaml.org,2002:')
                continue;
            if (!doc || tagNames.some(tn => tn.startsWith(prefix)))
                lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join('\n');
    }
}
Directives.defaultYaml = { explicit: false, version: '1.2' };
Directives.defaultTags = { '!!': 'tag:yaml.org,2002:' };

exports.Directives = Directives;


/***/ }),

/***/ 1464:
/***/ ((__unused_webpack_module, exports) => {



class YAMLError extends Error {
    constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
    }
}
class YAMLParseError extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLParseError', pos, code, message);
    }
}
class YAMLWarning extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLWarning', pos, code, message);
    }
}
const prettifyError = (src, lc) => (error) => {
    if (error.pos[0] === -1)
        return;
    error.linePos = error.pos.map(pos => lc.linePos(pos));
    const { line, col } = error.linePos[0];
    error.message += ` at line ${line}, column ${col}`;
    let ci = col - 1;
    let lineStr = src
        .substring(lc.lineStarts[line - 1], lc.lineStarts[line])
        .replace(/[\n\r]+$/, '');
    // Trim to max 80 chars, keeping col position near the middle
    if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = '…' + lineStr.substring(trimStart);
        ci -= trimStart - 1;
    }
    if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + '…';
    // Include previous line in context if pointing at line start
    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        // Regexp won't match if start is trimmed
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
            prev = prev.substring(0, 79) + '…\n';
        lineStr = prev + lineStr;
    }
    if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
            count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = ' '.repeat(ci) + '^'.repeat(count);
        error.message += `:\n\n${lineStr}\n${pointer}\n`;
    }
};

exports.YAMLError = YAMLError;
exports.YAMLParseError = YAMLParseError;
exports.YAMLWarning = YAMLWarning;
exports.prettifyError = prettifyError;


/***/ }),

/***/ 8815:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var Schema = __nccwpck_require__(5840);
var errors = __nccwpck_require__(1464);
var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);
var publicApi = __nccwpck_require__(4047);
var visit = __nccwpck_require__(204);



exports.Composer = composer.Composer;
exports.Document = Document.Document;
exports.Schema = Schema.Schema;
exports.YAMLError = errors.YAMLError;
exports.YAMLParseError = errors.YAMLParseError;
exports.YAMLWarning = errors.YAMLWarning;
exports.Alias = Alias.Alias;
exports.isAlias = identity.isAlias;
exports.isCollection = identity.isCollection;
exports.isDocument = identity.isDocument;
exports.isMap = identity.isMap;
exports.isNode = identity.isNode;
exports.isPair = identity.isPair;
exports.isScalar = identity.isScalar;
exports.isSeq = identity.isSeq;
exports.Pair = Pair.Pair;
exports.Scalar = Scalar.Scalar;
exports.YAMLMap = YAMLMap.YAMLMap;
exports.YAMLSeq = YAMLSeq.YAMLSeq;
exports.CST = cst;
exports.Lexer = lexer.Lexer;
exports.LineCounter = lineCounter.LineCounter;
exports.Parser = parser.Parser;
exports.parse = publicApi.parse;
exports.parseAllDocuments = publicApi.parseAllDocuments;
exports.parseDocument = publicApi.parseDocument;
exports.stringify = publicApi.stringify;
exports.visit = visit.visit;
exports.visitAsync = visit.visitAsync;


/***/ }),

/***/ 7249:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);

function debug(logLevel, ...messages) {
    if (logLevel === 'debug')
        console.log(...messages);
}
function warn(logLevel, warning) {
    if (logLevel === 'debug' || logLevel === 'warn') {
        if (typeof node_process.emitWarning === 'function')
            node_process.emitWarning(warning);
        else
            console.warn(warning);
    }
}

exports.debug = debug;
exports.warn = warn;


/***/ }),

/***/ 4065:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var visit = __nccwpck_require__(204);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

class Alias extends Node.NodeBase {
    constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, 'tag', {
            set() {
                throw new Error('Alias nodes cannot have tags');
            }
        });
    }
    /**
     * Resolve the value of this alias within `doc`, finding the last
     * instance of the `source` anchor before this node.
     */
    resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
            throw new ReferenceError('Alias resolution is disabled');
        let nodes;
        if (ctx?.aliasResolveCache) {
            nodes = ctx.aliasResolveCache;
        }
        else {
            nodes = [];
            visit.visit(doc, {
                Node: (_key, node) => {
                    if (identity.isAlias(node) || identity.hasAnchor(node))
                        nodes.push(node);
                }
            });
            if (ctx)
                ctx.aliasResolveCache = nodes;
        }
        let found = undefined;
        for (const node of nodes) {
            if (node === this)
                break;
            if (node.anchor === this.source)
                found = node;
        }
        if (found && ctx) {
            const { anchors, doc, maxAliasCount } = ctx;
            let data = anchors.get(found);
            if (!data) {
                // Resolve anchors for Node.prototype.toJS()
                toJS.toJS(found, null, ctx);
                data = anchors.get(found);
            }
            /* istanbul ignore if */
            if (data?.res === undefined) {
                const msg = 'This should not happen: Alias anchor was not resolved?';
                throw new ReferenceError(msg);
            }
            if (maxAliasCount >= 0) {
                data.count += 1;
                if (data.aliasCount === 0)
                    data.aliasCount = getAliasCount(doc, found, anchors);
                if (data.count * data.aliasCount > maxAliasCount) {
                    const msg = 'Excessive alias count indicates a resource exhaustion attack';
                    throw new ReferenceError(msg);
                }
            }
        }
        return found;
    }
    toJSON(_arg, ctx) {
        if (!ctx)
            return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
    }
    toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
            anchors.anchorIsValid(this.source);
            if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
                const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
                throw new Error(msg);
            }
            if (ctx.implicitKey)
                return `${src} `;
        }
        return src;
    }
}
function getAliasCount(doc, node, anchors) {
    if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors && source && anchors.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
    }
    else if (identity.isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
            const c = getAliasCount(doc, item, anchors);
            if (c > count)
                count = c;
        }
        return count;
    }
    else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors);
        const vc = getAliasCount(doc, node.value, anchors);
        return Math.max(kc, vc);
    }
    return 1;
}

exports.Alias = Alias;


/***/ }),

/***/ 101:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);

function collectionFromPath(schema, path, value) {
    let v = value;
    for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === 'number' && Number.isInteger(k) && k >= 0) {
            const a = [];
            a[k] = v;
            v = a;
        }
        else {
            v = new Map([[k, v]]);
        }
    }
    return createNode.createNode(v, undefined, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
            throw new Error('This should not happen, please report a bug.');
        },
        schema,
        sourceObjects: new Map()
    });
}
// Type guard is intentionally a little wrong so as to be more useful,
// as it does not cover untypable empty non-string iterables (e.g. []).
const isEmptyPath = (path) => path == null ||
    (typeof path === 'object' && !!path[Symbol.iterator]().next().done);
class Collection extends Node.NodeBase {
    constructor(type, schema) {
        super(type);
        Object.defineProperty(this, 'schema', {
            value: schema,
            configurable: true,
            enumerable: false,
            writable: true
        });
    }
    /**
     * Create a copy of this collection.
     *
     * @param schema - If defined, overwrites the original's schema
     */
    clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
            copy.schema = schema;
        copy.items = copy.items.map(it => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /**
     * Adds a value to the collection. For `!!map` and `!!omap` the value must
     * be a Pair instance or a `{ key, value }` object, which may not have a key
     * that already exists in the map.
     */
    addIn(path, value) {
        if (isEmptyPath(path))
            this.add(value);
        else {
            const [key, ...rest] = path;
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.addIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
    /**
     * Removes a value from the collection.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
            return node.deleteIn(rest);
        else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
            return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
            return identity.isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
    }
    hasAllNullValues(allowScalar) {
        return this.items.every(node => {
            if (!identity.isPair(node))
                return false;
            const n = node.value;
            return (n == null ||
                (allowScalar &&
                    identity.isScalar(n) &&
                    n.value == null &&
                    !n.commentBefore &&
                    !n.comment &&
                    !n.tag));
        });
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     */
    hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
            this.set(key, value);
        }
        else {
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.setIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
}

exports.Collection = Collection;
exports.collectionFromPath = collectionFromPath;
exports.isEmptyPath = isEmptyPath;


/***/ }),

/***/ 6673:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var applyReviver = __nccwpck_require__(3661);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

class NodeBase {
    constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
    }
    /** Create a copy of this node.  */
    clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** A plain JavaScript representation of this node. */
    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
            throw new TypeError('A document argument is required');
        const ctx = {
            anchors: new Map(),
            doc,
            keep: true,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
}

exports.NodeBase = NodeBase;


/***/ }),

/***/ 7165:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyPair = __nccwpck_require__(9748);
var addPairToJSMap = __nccwpck_require__(7104);
var identity = __nccwpck_require__(1127);

function createPair(key, value, ctx) {
    const k = createNode.createNode(key, undefined, ctx);
    const v = createNode.createNode(value, undefined, ctx);
    return new Pair(k, v);
}
class Pair {
    constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
    }
    clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
            key = key.clone(schema);
        if (identity.isNode(value))
            value = value.clone(schema);
        return new Pair(key, value);
    }
    toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
    }
    toString(ctx, onComment, onChompKeep) {
        return ctx?.doc
            ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep)
            : JSON.stringify(this);
    }
}

exports.Pair = Pair;
exports.createPair = createPair;


/***/ }),

/***/ 3301:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

const isScalarValue = (value) => !value || (typeof value !== 'function' && typeof value !== 'object');
class Scalar extends Node.NodeBase {
    constructor(value) {
        super(identity.SCALAR);
        this.value = value;
    }
    toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
    }
    toString() {
        return String(this.value);
    }
}
Scalar.BLOCK_FOLDED = 'BLOCK_FOLDED';
Scalar.BLOCK_LITERAL = 'BLOCK_LITERAL';
Scalar.PLAIN = 'PLAIN';
Scalar.QUOTE_DOUBLE = 'QUOTE_DOUBLE';
Scalar.QUOTE_SINGLE = 'QUOTE_SINGLE';

exports.Scalar = Scalar;
exports.isScalarValue = isScalarValue;


/***/ }),

/***/ 4454:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyCollection = __nccwpck_require__(1212);
var addPairToJSMap = __nccwpck_require__(7104);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);

function findPair(items, key) {
    const k = identity.isScalar(key) ? key.value : key;
    for (const it of items) {
        if (identity.isPair(it)) {
            if (it.key === key || it.key === k)
                return it;
            if (identity.isScalar(it.key) && it.key.value === k)
                return it;
        }
    }
    return undefined;
}
class YAMLMap extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:map';
    }
    constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
    }
    /**
     * A generic collection parsing method that can be extended
     * to other node classes that inherit from YAMLMap
     */
    static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
            if (typeof replacer === 'function')
                value = replacer.call(obj, key, value);
            else if (Array.isArray(replacer) && !replacer.includes(key))
                return;
            if (value !== undefined || keepUndefined)
                map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
            for (const [key, value] of obj)
                add(key, value);
        }
        else if (obj && typeof obj === 'object') {
            for (const key of Object.keys(obj))
                add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === 'function') {
            map.items.sort(schema.sortMapEntries);
        }
        return map;
    }
    /**
     * Adds a value to the collection.
     *
     * @param overwrite - If not set `true`, using a key that is already in the
     *   collection will throw. Otherwise, overwrites the previous value.
     */
    add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
            _pair = pair;
        else if (!pair || typeof pair !== 'object' || !('key' in pair)) {
            // In TypeScript, this never happens.
            _pair = new Pair.Pair(pair, pair?.value);
        }
        else
            _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
            if (!overwrite)
                throw new Error(`Key ${_pair.key} already set`);
            // For scalars, keep the old node & its comments and anchors
            if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
                prev.value.value = _pair.value;
            else
                prev.value = _pair.value;
        }
        else if (sortEntries) {
            const i = this.items.findIndex(item => sortEntries(_pair, item) < 0);
            if (i === -1)
                this.items.push(_pair);
            else
                this.items.splice(i, 0, _pair);
        }
        else {
            this.items.push(_pair);
        }
    }
    delete(key) {
        const it = findPair(this.items, key);
        if (!it)
            return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? undefined;
    }
    has(key) {
        return !!findPair(this.items, key);
    }
    set(key, value) {
        this.add(new Pair.Pair(key, value), true);
    }
    /**
     * @param ctx - Conversion context, originally set in Document#toJS()
     * @param {Class} Type - If set, forces the returned collection type
     * @returns Instance of Type, Map, or Object
     */
    toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? new Map() : {};
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const item of this.items)
            addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        for (const item of this.items) {
            if (!identity.isPair(item))
                throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
            ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '',
            flowChars: { start: '{', end: '}' },
            itemIndent: ctx.indent || '',
            onChompKeep,
            onComment
        });
    }
}

exports.YAMLMap = YAMLMap;
exports.findPair = findPair;


/***/ }),

/***/ 2223:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyCollection = __nccwpck_require__(1212);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var toJS = __nccwpck_require__(4043);

class YAMLSeq extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:seq';
    }
    constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
    }
    add(value) {
        this.items.push(value);
    }
    /**
     * Removes a value from the collection.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     *
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return undefined;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     */
    has(key) {
        const idx = asItemIndex(key);
        return typeof idx === 'number' && idx < this.items.length;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     *
     * If `key` does not contain a representation of an integer, this will throw.
     * It may be wrapped in a `Scalar`.
     */
    set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
            prev.value = value;
        else
            this.items[idx] = value;
    }
    toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
            ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
            seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '- ',
            flowChars: { start: '[', end: ']' },
            itemIndent: (ctx.indent || '') + '  ',
            onChompKeep,
            onComment
        });
    }
    static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
            let i = 0;
            for (let it of obj) {
                if (typeof replacer === 'function') {
                    const key = obj instanceof Set ? it : String(i++);
                    it = replacer.call(obj, key, it);
                }
                seq.items.push(createNode.createNode(it, undefined, ctx));
            }
        }
        return seq;
    }
}
function asItemIndex(key) {
    let idx = identity.isScalar(key) ? key.value : key;
    if (idx && typeof idx === 'string')
        idx = Number(idx);
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0
        ? idx
        : null;
}

exports.YAMLSeq = YAMLSeq;


/***/ }),

/***/ 7104:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var log = __nccwpck_require__(7249);
var merge = __nccwpck_require__(452);
var stringify = __nccwpck_require__(2148);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

function addPairToJSMap(ctx, map, { key, value }) {
    if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
    // TODO: Should drop this special case for bare << handling
    else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
    else {
        const jsKey = toJS.toJS(key, '', ctx);
        if (map instanceof Map) {
            map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        }
        else if (map instanceof Set) {
            map.add(jsKey);
        }
        else {
            const stringKey = stringifyKey(key, jsKey, ctx);
            const jsValue = toJS.toJS(value, stringKey, ctx);
            if (stringKey in map)
                Object.defineProperty(map, stringKey, {
                    value: jsValue,
                    writable: true,
                    enumerable: true,
                    configurable: true
                });
            else
                map[stringKey] = jsValue;
        }
    }
    return map;
}
function stringifyKey(key, jsKey, ctx) {
    if (jsKey === null)
        return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (typeof jsKey !== 'object')
        return String(jsKey);
    if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify.createStringifyContext(ctx.doc, {});
        strCtx.anchors = new Set();
        for (const node of ctx.anchors.keys())
            strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
            let jsonStr = JSON.stringify(strKey);
            if (jsonStr.length > 40)
                jsonStr = jsonStr.substring(0, 36) + '..."';
            log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
            ctx.mapKeyWarned = true;
        }
        return strKey;
    }
    return JSON.stringify(jsKey);
}

exports.addPairToJSMap = addPairToJSMap;


/***/ }),

/***/ 1127:
/***/ ((__unused_webpack_module, exports) => {



const ALIAS = Symbol.for('yaml.alias');
const DOC = Symbol.for('yaml.document');
const MAP = Symbol.for('yaml.map');
const PAIR = Symbol.for('yaml.pair');
const SCALAR = Symbol.for('yaml.scalar');
const SEQ = Symbol.for('yaml.seq');
const NODE_TYPE = Symbol.for('yaml.node.type');
const isAlias = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === ALIAS;
const isDocument = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === DOC;
const isMap = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === MAP;
const isPair = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === PAIR;
const isScalar = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SCALAR;
const isSeq = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SEQ;
function isCollection(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case MAP:
            case SEQ:
                return true;
        }
    return false;
}
function isNode(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case ALIAS:
            case MAP:
            case SCALAR:
            case SEQ:
                return true;
        }
    return false;
}
const hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;

exports.ALIAS = ALIAS;
exports.DOC = DOC;
exports.MAP = MAP;
exports.NODE_TYPE = NODE_TYPE;
exports.PAIR = PAIR;
exports.SCALAR = SCALAR;
exports.SEQ = SEQ;
exports.hasAnchor = hasAnchor;
exports.isAlias = isAlias;
exports.isCollection = isCollection;
exports.isDocument = isDocument;
exports.isMap = isMap;
exports.isNode = isNode;
exports.isPair = isPair;
exports.isScalar = isScalar;
exports.isSeq = isSeq;


/***/ }),

/***/ 4043:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

/**
 * Recursively convert any node or its contents to native JavaScript
 *
 * @param value - The input value
 * @param arg - If `value` defines a `toJSON()` method, use this
 *   as its first argument
 * @param ctx - Conversion context, originally set in Document#toJS(). If
 *   `{ keep: true }` is not set, output should be suitable for JSON
 *   stringification.
 */
function toJS(value, arg, ctx) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return
    if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
    if (value && typeof value.toJSON === 'function') {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-call
        if (!ctx || !identity.hasAnchor(value))
            return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: undefined };
        ctx.anchors.set(value, data);
        ctx.onCreate = res => {
            data.res = res;
            delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
            ctx.onCreate(res);
        return res;
    }
    if (typeof value === 'bigint' && !ctx?.keep)
        return Number(value);
    return value;
}

exports.toJS = toJS;


/***/ }),

/***/ 110:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);
var errors = __nccwpck_require__(1464);
var stringifyString = __nccwpck_require__(3069);

function resolveAsScalar(token, strict = true, onError) {
    if (token) {
        const _onError = (pos, code, message) => {
            const offset = typeof pos === 'number' ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
            if (onError)
                onError(offset, code, message);
            else
                throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
            case 'block-scalar':
                return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
    }
    return null;
}
/**
 * Create a new scalar token with `value`
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.end Comments and whitespace after the end of the value, or after the block scalar header. If undefined, a newline will be added.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.indent The indent level of the token.
 * @param context.inFlow Is this scalar within a flow collection? This may affect the resolved type of the token's value.
 * @param context.offset The offset position of the token.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function createScalarToken(value, context) {
    const { implicitKey = false, indent, inFlow = false, offset = -1, type = 'PLAIN' } = context;
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    const end = context.end ?? [
        { type: 'newline', offset: -1, indent, source: '\n' }
    ];
    switch (source[0]) {
        case '|':
        case '>': {
            const he = source.indexOf('\n');
            const head = source.substring(0, he);
            const body = source.substring(he + 1) + '\n';
            const props = [
                { type: 'block-scalar-header', offset, indent, source: head }
            ];
            if (!addEndtoBlockProps(props, end))
                props.push({ type: 'newline', offset: -1, indent, source: '\n' });
            return { type: 'block-scalar', offset, indent, props, source: body };
        }
        case '"':
            return { type: 'double-quoted-scalar', offset, indent, source, end };
        case "'":
            return { type: 'single-quoted-scalar', offset, indent, source, end };
        default:
            return { type: 'scalar', offset, indent, source, end };
    }
}
/**
 * Set the value of `token` to the given string `value`, overwriting any previous contents and type that it may have.
 *
 * Best efforts are made to retain any comments previously associated with the `token`,
 * though all contents within a collection's `items` will be overwritten.
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param token Any token. If it does not include an `indent` value, the value will be stringified as if it were an implicit key.
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.afterKey In most cases, values after a key should have an additional level of indentation.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.inFlow Being within a flow collection may affect the resolved type of the token's value.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function setScalarValue(token, value, context = {}) {
    let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
    let indent = 'indent' in token ? token.indent : null;
    if (afterKey && typeof indent === 'number')
        indent += 2;
    if (!type)
        switch (token.type) {
            case 'single-quoted-scalar':
                type = 'QUOTE_SINGLE';
                break;
            case 'double-quoted-scalar':
                type = 'QUOTE_DOUBLE';
                break;
            case 'block-scalar': {
                const header = token.props[0];
                if (header.type !== 'block-scalar-header')
                    throw new Error('Invalid block scalar header');
                type = header.source[0] === '>' ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
                break;
            }
            default:
                type = 'PLAIN';
        }
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    switch (source[0]) {
        case '|':
        case '>':
            setBlockScalarValue(token, source);
            break;
        case '"':
            setFlowScalarValue(token, source, 'double-quoted-scalar');
            break;
        case "'":
            setFlowScalarValue(token, source, 'single-quoted-scalar');
            break;
        default:
            setFlowScalarValue(token, source, 'scalar');
    }
}
function setBlockScalarValue(token, source) {
    const he = source.indexOf('\n');
    const head = source.substring(0, he);
    const body = source.substring(he + 1) + '\n';
    if (token.type === 'block-scalar') {
        const header = token.props[0];
        if (header.type !== 'block-scalar-header')
            throw new Error('Invalid block scalar header');
        header.source = head;
        token.source = body;
    }
    else {
        const { offset } = token;
        const indent = 'indent' in token ? token.indent : -1;
        const props = [
            { type: 'block-scalar-header', offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, 'end' in token ? token.end : undefined))
            props.push({ type: 'newline', offset: -1, indent, source: '\n' });
        for (const key of Object.keys(token))
            if (key !== 'type' && key !== 'offset')
                delete token[key];
        Object.assign(token, { type: 'block-scalar', indent, props, source: body });
    }
}
/** @returns `true` if last token is a newline */
function addEndtoBlockProps(props, end) {
    if (end)
        for (const st of end)
            switch (st.type) {
                case 'space':
                case 'comment':
                    props.push(st);
                    break;
                case 'newline':
                    props.push(st);
                    return true;
            }
    return false;
}
function setFlowScalarValue(token, source, type) {
    switch (token.type) {
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            token.type = type;
            token.source = source;
            break;
        case 'block-scalar': {
            const end = token.props.slice(1);
            let oa = source.length;
            if (token.props[0].type === 'block-scalar-header')
                oa -= token.props[0].source.length;
            for (const tok of end)
                tok.offset += oa;
            delete token.props;
            Object.assign(token, { type, source, end });
            break;
        }
        case 'block-map':
        case 'block-seq': {
            const offset = token.offset + source.length;
            const nl = { type: 'newline', offset, indent: token.indent, source: '\n' };
            delete token.items;
            Object.assign(token, { type, source, end: [nl] });
            break;
        }
        default: {
            const indent = 'indent' in token ? token.indent : -1;
            const end = 'end' in token && Array.isArray(token.end)
                ? token.end.filter(st => st.type === 'space' ||
                    st.type === 'comment' ||
                    st.type === 'newline')
                : [];
            for (const key of Object.keys(token))
                if (key !== 'type' && key !== 'offset')
                    delete token[key];
            Object.assign(token, { type, indent, source, end });
        }
    }
}

exports.createScalarToken = createScalarToken;
exports.resolveAsScalar = resolveAsScalar;
exports.setScalarValue = setScalarValue;


/***/ }),

/***/ 1733:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringify a CST document, token, or collection item
 *
 * Fair warning: This applies no validation whatsoever, and
 * simply concatenates the sources in their logical order.
 */
const stringify = (cst) => 'type' in cst ? stringifyToken(cst) : stringifyItem(cst);
function stringifyToken(token) {
    switch (token.type) {
        case 'block-scalar': {
            let res = '';
            for (const tok of token.props)
                res += stringifyToken(tok);
            return res + token.source;
        }
        case 'block-map':
        case 'block-seq': {
            let res = '';
            for (const item of token.items)
                res += stringifyItem(item);
            return res;
        }
        case 'flow-collection': {
            let res = token.start.source;
            for (const item of token.items)
                res += stringifyItem(item);
            for (const st of token.end)
                res += st.source;
            return res;
        }
        case 'document': {
            let res = stringifyItem(token);
            if (token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
        default: {
            let res = token.source;
            if ('end' in token && token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
    }
}
function stringifyItem({ start, key, sep, value }) {
    let res = '';
    for (const st of start)
        res += st.source;
    if (key)
        res += stringifyToken(key);
    if (sep)
        for (const st of sep)
            res += st.source;
    if (value)
        res += stringifyToken(value);
    return res;
}

exports.stringify = stringify;


/***/ }),

/***/ 7715:
/***/ ((__unused_webpack_module, exports) => {



const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove item');
/**
 * Apply a visitor to a CST document or item.
 *
 * Walks through the tree (depth-first) starting from the root, calling a
 * `visitor` function with two arguments when entering each item:
 *   - `item`: The current item, which included the following members:
 *     - `start: SourceToken[]` – Source tokens before the key or value,
 *       possibly including its anchor or tag.
 *     - `key?: Token | null` – Set for pair values. May then be `null`, if
 *       the key before the `:` separator is empty.
 *     - `sep?: SourceToken[]` – Source tokens between the key and the value,
 *       which should include the `:` map value indicator if `value` is set.
 *     - `value?: Token` – The value of a sequence item, or of a map pair.
 *   - `path`: The steps from the root to the current node, as an array of
 *     `['key' | 'value', number]` tuples.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this token, continue with
 *      next sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current item, then continue with the next one
 *   - `number`: Set the index of the next step. This is useful especially if
 *     the index of the current token has changed.
 *   - `function`: Define the next visitor for this item. After the original
 *     visitor is called on item entry, next visitors are called after handling
 *     a non-empty `key` and when exiting the item.
 */
function visit(cst, visitor) {
    if ('type' in cst && cst.type === 'document')
        cst = { start: cst.start, value: cst.value };
    _visit(Object.freeze([]), cst, visitor);
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current item */
visit.SKIP = SKIP;
/** Remove the current item */
visit.REMOVE = REMOVE;
/** Find the item at `path` from `cst` as the root */
visit.itemAtPath = (cst, path) => {
    let item = cst;
    for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && 'items' in tok) {
            item = tok.items[index];
        }
        else
            return undefined;
    }
    return item;
};
/**
 * Get the immediate parent collection of the item at `path` from `cst` as the root.
 *
 * Throws an error if the collection is not found, which should never happen if the item itself exists.
 */
visit.parentCollection = (cst, path) => {
    const parent = visit.itemAtPath(cst, path.slice(0, -1));
    const field = path[path.length - 1][0];
    const coll = parent?.[field];
    if (coll && 'items' in coll)
        return coll;
    throw new Error('Parent collection not found');
};
function _visit(path, item, visitor) {
    let ctrl = visitor(item, path);
    if (typeof ctrl === 'symbol')
        return ctrl;
    for (const field of ['key', 'value']) {
        const token = item[field];
        if (token && 'items' in token) {
            for (let i = 0; i < token.items.length; ++i) {
                const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    token.items.splice(i, 1);
                    i -= 1;
                }
            }
            if (typeof ctrl === 'function' && field === 'key')
                ctrl = ctrl(item, path);
        }
    }
    return typeof ctrl === 'function' ? ctrl(item, path) : ctrl;
}

exports.visit = visit;


/***/ }),

/***/ 3461:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cstScalar = __nccwpck_require__(110);
var cstStringify = __nccwpck_require__(1733);
var cstVisit = __nccwpck_require__(7715);

/** The byte order mark */
const BOM = '\u{FEFF}';
/** Start of doc-mode */
const DOCUMENT = '\x02'; // C0: Start of Text
/** Unexpected end of flow-mode */
const FLOW_END = '\x18'; // C0: Cancel
/** Next token is a scalar value */
const SCALAR = '\x1f'; // C0: Unit Separator
/** @returns `true` if `token` is a flow or block collection */
const isCollection = (token) => !!token && 'items' in token;
/** @returns `true` if `token` is a flow or block scalar; not an alias */
const isScalar = (token) => !!token &&
    (token.type === 'scalar' ||
        token.type === 'single-quoted-scalar' ||
        token.type === 'double-quoted-scalar' ||
        token.type === 'block-scalar');
/* istanbul ignore next */
/** Get a printable representation of a lexer token */
function prettyToken(token) {
    switch (token) {
        case BOM:
            return '<BOM>';
        case DOCUMENT:
            return '<DOC>';
        case FLOW_END:
            return '<FLOW_END>';
        case SCALAR:
            return '<SCALAR>';
        default:
            return JSON.stringify(token);
    }
}
/** Identify the type of a lexer token. May return `null` for unknown tokens. */
function tokenType(source) {
    switch (source) {
        case BOM:
            return 'byte-order-mark';
        case DOCUMENT:
            return 'doc-mode';
        case FLOW_END:
            return 'flow-error-end';
        case SCALAR:
            return 'scalar';
        case '---':
            return 'doc-start';
        case '...':
            return 'doc-end';
        case '':
        case '\n':
        case '\r\n':
            return 'newline';
        case '-':
            return 'seq-item-ind';
        case '?':
            return 'explicit-key-ind';
        case ':':
            return 'map-value-ind';
        case '{':
            return 'flow-map-start';
        case '}':
            return 'flow-map-end';
        case '[':
            return 'flow-seq-start';
        case ']':
            return 'flow-seq-end';
        case ',':
            return 'comma';
    }
    switch (source[0]) {
        case ' ':
        case '\t':
            return 'space';
        case '#':
            return 'comment';
        case '%':
            return 'directive-line';
        case '*':
            return 'alias';
        case '&':
            return 'anchor';
        case '!':
            return 'tag';
        case "'":
            return 'single-quoted-scalar';
        case '"':
            return 'double-quoted-scalar';
        case '|':
        case '>':
            return 'block-scalar-header';
    }
    return null;
}

exports.createScalarToken = cstScalar.createScalarToken;
exports.resolveAsScalar = cstScalar.resolveAsScalar;
exports.setScalarValue = cstScalar.setScalarValue;
exports.stringify = cstStringify.stringify;
exports.visit = cstVisit.visit;
exports.BOM = BOM;
exports.DOCUMENT = DOCUMENT;
exports.FLOW_END = FLOW_END;
exports.SCALAR = SCALAR;
exports.isCollection = isCollection;
exports.isScalar = isScalar;
exports.prettyToken = prettyToken;
exports.tokenType = tokenType;


/***/ }),

/***/ 361:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cst = __nccwpck_require__(3461);

/*
START -> stream

stream
  directive -> line-end -> stream
  indent + line-end -> stream
  [else] -> line-start

line-end
  comment -> line-end
  newline -> .
  input-end -> END

line-start
  doc-start -> doc
  doc-end -> stream
  [else] -> indent -> block-start

block-start
  seq-item-start -> block-start
  explicit-key-start -> block-start
  map-value-start -> block-start
  [else] -> doc

doc
  line-end -> line-start
  spaces -> doc
  anchor -> doc
  tag -> doc
  flow-start -> flow -> doc
  flow-end -> error -> doc
  seq-item-start -> error -> doc
  explicit-key-start -> error -> doc
  map-value-start -> doc
  alias -> doc
  quote-start -> quoted-scalar -> doc
  block-scalar-header -> line-end -> block-scalar(min) -> line-start
  [else] -> plain-scalar(false, min) -> doc

flow
  line-end -> flow
  spaces -> flow
  anchor -> flow
  tag -> flow
  flow-start -> flow -> flow
  flow-end -> .
  seq-item-start -> error -> flow
  explicit-key-start -> flow
  map-value-start -> flow
  alias -> flow
  quote-start -> quoted-scalar -> flow
  comma -> flow
  [else] -> plain-scalar(true, 0) -> flow

quoted-scalar
  quote-end -> .
  [else] -> quoted-scalar

block-scalar(min)
  newline + peek(indent < min) -> .
  [else] -> block-scalar(min)

plain-scalar(is-flow, min)
  scalar-end(is-flow) -> .
  peek(newline + (indent < min)) -> .
  [else] -> plain-scalar(min)
*/
function isEmpty(ch) {
    switch (ch) {
        case undefined:
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            return true;
        default:
            return false;
    }
}
const hexDigits = new Set('0123456789ABCDEFabcdef');
const tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
const flowIndicatorChars = new Set(',[]{}');
const invalidAnchorChars = new Set(' ,[]{}\n\r\t');
const isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
/**
 * Splits an input string into lexical tokens, i.e. smaller strings that are
 * easily identifiable by `tokens.tokenType()`.
 *
 * Lexing starts always in a "stream" context. Incomplete input may be buffered
 * until a complete token can be emitted.
 *
 * In addition to slices of the original input, the following control characters
 * may also be emitted:
 *
 * - `\x02` (Start of Text): A document starts with the next token
 * - `\x18` (Cancel): Unexpected end of flow-mode (indicates an error)
 * - `\x1f` (Unit Separator): Next token is a scalar value
 * - `\u{FEFF}` (Byte order mark): Emitted separately outside documents
 */
class Lexer {
    constructor() {
        /**
         * Flag indicating whether the end of the current buffer marks the end of
         * all input
         */
        this.atEnd = false;
        /**
         * Explicit indent set in block scalar header, as an offset from the current
         * minimum indent, so e.g. set to 1 from a header `|2+`. Set to -1 if not
         * explicitly set.
         */
        this.blockScalarIndent = -1;
        /**
         * Block scalars that include a + (keep) chomping indicator in their header
         * include trailing empty lines, which are otherwise excluded from the
         * scalar's contents.
         */
        this.blockScalarKeep = false;
        /** Current input */
        this.buffer = '';
        /**
         * Flag noting whether the map value indicator : can immediately follow this
         * node within a flow context.
         */
        this.flowKey = false;
        /** Count of surrounding flow collection levels. */
        this.flowLevel = 0;
        /**
         * Minimum level of indentation required for next lines to be parsed as a
         * part of the current scalar value.
         */
        this.indentNext = 0;
        /** Indentation level of the current line. */
        this.indentValue = 0;
        /** Position of the next \n character. */
        this.lineEndPos = null;
        /** Stores the state of the lexer if reaching the end of incpomplete input */
        this.next = null;
        /** A pointer to `buffer`; the current position of the lexer. */
        this.pos = 0;
    }
    /**
     * Generate YAML tokens from the `source` string. If `incomplete`,
     * a part of the last line may be left as a buffer for the next call.
     *
     * @returns A generator of lexical tokens
     */
    *lex(source, incomplete = false) {
        if (source) {
            if (typeof source !== 'string')
                throw TypeError('source is not a string');
            this.buffer = this.buffer ? this.buffer + source : source;
            this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? 'stream';
        while (next && (incomplete || this.hasChars(1)))
            next = yield* this.parseNext(next);
    }
    atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === ' ' || ch === '\t')
            ch = this.buffer[++i];
        if (!ch || ch === '#' || ch === '\n')
            return true;
        if (ch === '\r')
            return this.buffer[i + 1] === '\n';
        return false;
    }
    charAt(n) {
        return this.buffer[this.pos + n];
    }
    continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
            let indent = 0;
            while (ch === ' ')
                ch = this.buffer[++indent + offset];
            if (ch === '\r') {
                const next = this.buffer[indent + offset + 1];
                if (next === '\n' || (!next && !this.atEnd))
                    return offset + indent + 1;
            }
            return ch === '\n' || indent >= this.indentNext || (!ch && !this.atEnd)
                ? offset + indent
                : -1;
        }
        if (ch === '-' || ch === '.') {
            const dt = this.buffer.substr(offset, 3);
            if ((dt === '---' || dt === '...') && isEmpty(this.buffer[offset + 3]))
                return -1;
        }
        return offset;
    }
    getLine() {
        let end = this.lineEndPos;
        if (typeof end !== 'number' || (end !== -1 && end < this.pos)) {
            end = this.buffer.indexOf('\n', this.pos);
            this.lineEndPos = end;
        }
        if (end === -1)
            return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === '\r')
            end -= 1;
        return this.buffer.substring(this.pos, end);
    }
    hasChars(n) {
        return this.pos + n <= this.buffer.length;
    }
    setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
    }
    peek(n) {
        return this.buffer.substr(this.pos, n);
    }
    *parseNext(next) {
        switch (next) {
            case 'stream':
                return yield* this.parseStream();
            case 'line-start':
                return yield* this.parseLineStart();
            case 'block-start':
                return yield* this.parseBlockStart();
            case 'doc':
                return yield* this.parseDocument();
            case 'flow':
                return yield* this.parseFlowCollection();
            case 'quoted-scalar':
                return yield* this.parseQuotedScalar();
            case 'block-scalar':
                return yield* this.parseBlockScalar();
            case 'plain-scalar':
                return yield* this.parsePlainScalar();
        }
    }
    *parseStream() {
        let line = this.getLine();
        if (line === null)
            return this.setNext('stream');
        if (line[0] === cst.BOM) {
            yield* this.pushCount(1);
            line = line.substring(1);
        }
        if (line[0] === '%') {
            let dirEnd = line.length;
            let cs = line.indexOf('#');
            while (cs !== -1) {
                const ch = line[cs - 1];
                if (ch === ' ' || ch === '\t') {
                    dirEnd = cs - 1;
                    break;
                }
                else {
                    cs = line.indexOf('#', cs + 1);
                }
            }
            while (true) {
                const ch = line[dirEnd - 1];
                if (ch === ' ' || ch === '\t')
                    dirEnd -= 1;
                else
                    break;
            }
            const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
            yield* this.pushCount(line.length - n); // possible comment
            this.pushNewline();
            return 'stream';
        }
        if (this.atLineEnd()) {
            const sp = yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - sp);
            yield* this.pushNewline();
            return 'stream';
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
    }
    *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
            return this.setNext('line-start');
        if (ch === '-' || ch === '.') {
            if (!this.atEnd && !this.hasChars(4))
                return this.setNext('line-start');
            const s = this.peek(3);
            if ((s === '---' || s === '...') && isEmpty(this.charAt(3))) {
                yield* this.pushCount(3);
                this.indentValue = 0;
                this.indentNext = 0;
                return s === '---' ? 'doc' : 'stream';
            }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
            this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
    }
    *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
            return this.setNext('block-start');
        if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(ch1)) {
            const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
            this.indentNext = this.indentValue + 1;
            this.indentValue += n;
            return 'block-start';
        }
        return 'doc';
    }
    *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
            return this.setNext('doc');
        let n = yield* this.pushIndicators();
        switch (line[n]) {
            case '#':
                yield* this.pushCount(line.length - n);
            // fallthrough
            case undefined:
                yield* this.pushNewline();
                return yield* this.parseLineStart();
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel = 1;
                return 'flow';
            case '}':
            case ']':
                // this is an error
                yield* this.pushCount(1);
                return 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'doc';
            case '"':
            case "'":
                return yield* this.parseQuotedScalar();
            case '|':
            case '>':
                n += yield* this.parseBlockScalarHeader();
                n += yield* this.pushSpaces(true);
                yield* this.pushCount(line.length - n);
                yield* this.pushNewline();
                return yield* this.parseBlockScalar();
            default:
                return yield* this.parsePlainScalar();
        }
    }
    *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
            nl = yield* this.pushNewline();
            if (nl > 0) {
                sp = yield* this.pushSpaces(false);
                this.indentValue = indent = sp;
            }
            else {
                sp = 0;
            }
            sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
            return this.setNext('flow');
        if ((indent !== -1 && indent < this.indentNext && line[0] !== '#') ||
            (indent === 0 &&
                (line.startsWith('---') || line.startsWith('...')) &&
                isEmpty(line[3]))) {
            // Allowing for the terminal ] or } at the same (rather than greater)
            // indent level as the initial [ or { is technically invalid, but
            // failing here would be surprising to users.
            const atFlowEndMarker = indent === this.indentNext - 1 &&
                this.flowLevel === 1 &&
                (line[0] === ']' || line[0] === '}');
            if (!atFlowEndMarker) {
                // this is an error
                this.flowLevel = 0;
                yield cst.FLOW_END;
                return yield* this.parseLineStart();
            }
        }
        let n = 0;
        while (line[n] === ',') {
            n += yield* this.pushCount(1);
            n += yield* this.pushSpaces(true);
            this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
            case undefined:
                return 'flow';
            case '#':
                yield* this.pushCount(line.length - n);
                return 'flow';
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel += 1;
                return 'flow';
            case '}':
            case ']':
                yield* this.pushCount(1);
                this.flowKey = true;
                this.flowLevel -= 1;
                return this.flowLevel ? 'flow' : 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'flow';
            case '"':
            case "'":
                this.flowKey = true;
                return yield* this.parseQuotedScalar();
            case ':': {
                const next = this.charAt(1);
                if (this.flowKey || isEmpty(next) || next === ',') {
                    this.flowKey = false;
                    yield* this.pushCount(1);
                    yield* this.pushSpaces(true);
                    return 'flow';
                }
            }
            // fallthrough
            default:
                this.flowKey = false;
                return yield* this.parsePlainScalar();
        }
    }
    *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
            while (end !== -1 && this.buffer[end + 1] === "'")
                end = this.buffer.indexOf("'", end + 2);
        }
        else {
            // double-quote
            while (end !== -1) {
                let n = 0;
                while (this.buffer[end - 1 - n] === '\\')
                    n += 1;
                if (n % 2 === 0)
                    break;
                end = this.buffer.indexOf('"', end + 1);
            }
        }
        // Only looking for newlines within the quotes
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf('\n', this.pos);
        if (nl !== -1) {
            while (nl !== -1) {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = qb.indexOf('\n', cs);
            }
            if (nl !== -1) {
                // this is an error caused by an unexpected unindent
                end = nl - (qb[nl - 1] === '\r' ? 2 : 1);
            }
        }
        if (end === -1) {
            if (!this.atEnd)
                return this.setNext('quoted-scalar');
            end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? 'flow' : 'doc';
    }
    *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
            const ch = this.buffer[++i];
            if (ch === '+')
                this.blockScalarKeep = true;
            else if (ch > '0' && ch <= '9')
                this.blockScalarIndent = Number(ch) - 1;
            else if (ch !== '-')
                break;
        }
        return yield* this.pushUntil(ch => isEmpty(ch) || ch === '#');
    }
    *parseBlockScalar() {
        let nl = this.pos - 1; // may be -1 if this.pos === 0
        let indent = 0;
        let ch;
        loop: for (let i = this.pos; (ch = this.buffer[i]); ++i) {
            switch (ch) {
                case ' ':
                    indent += 1;
                    break;
                case '\n':
                    nl = i;
                    indent = 0;
                    break;
                case '\r': {
                    const next = this.buffer[i + 1];
                    if (!next && !this.atEnd)
                        return this.setNext('block-scalar');
                    if (next === '\n')
                        break;
                } // fallthrough
                default:
                    break loop;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('block-scalar');
        if (indent >= this.indentNext) {
            if (this.blockScalarIndent === -1)
                this.indentNext = indent;
            else {
                this.indentNext =
                    this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
            }
            do {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = this.buffer.indexOf('\n', cs);
            } while (nl !== -1);
            if (nl === -1) {
                if (!this.atEnd)
                    return this.setNext('block-scalar');
                nl = this.buffer.length;
            }
        }
        // Trailing insufficiently indented tabs are invalid.
        // To catch that during parsing, we include them in the block scalar value.
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === ' ')
            ch = this.buffer[++i];
        if (ch === '\t') {
            while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n')
                ch = this.buffer[++i];
            nl = i - 1;
        }
        else if (!this.blockScalarKeep) {
            do {
                let i = nl - 1;
                let ch = this.buffer[i];
                if (ch === '\r')
                    ch = this.buffer[--i];
                const lastChar = i; // Drop the line if last char not more indented
                while (ch === ' ')
                    ch = this.buffer[--i];
                if (ch === '\n' && i >= this.pos && i + 1 + indent > lastChar)
                    nl = i;
                else
                    break;
            } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
    }
    *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while ((ch = this.buffer[++i])) {
            if (ch === ':') {
                const next = this.buffer[i + 1];
                if (isEmpty(next) || (inFlow && flowIndicatorChars.has(next)))
                    break;
                end = i;
            }
            else if (isEmpty(ch)) {
                let next = this.buffer[i + 1];
                if (ch === '\r') {
                    if (next === '\n') {
                        i += 1;
                        ch = '\n';
                        next = this.buffer[i + 1];
                    }
                    else
                        end = i;
                }
                if (next === '#' || (inFlow && flowIndicatorChars.has(next)))
                    break;
                if (ch === '\n') {
                    const cs = this.continueScalar(i + 1);
                    if (cs === -1)
                        break;
                    i = Math.max(i, cs - 2); // to advance, but still account for ' #'
                }
            }
            else {
                if (inFlow && flowIndicatorChars.has(ch))
                    break;
                end = i;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('plain-scalar');
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? 'flow' : 'doc';
    }
    *pushCount(n) {
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos += n;
            return n;
        }
        return 0;
    }
    *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
            yield s;
            this.pos += s.length;
            return s.length;
        }
        else if (allowEmpty)
            yield '';
        return 0;
    }
    *pushIndicators() {
        let n = 0;
        loop: while (true) {
            switch (this.charAt(0)) {
                case '!':
                    n += yield* this.pushTag();
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '&':
                    n += yield* this.pushUntil(isNotAnchorChar);
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '-': // this is an error
                case '?': // this is an error outside flow collections
                case ':': {
                    const inFlow = this.flowLevel > 0;
                    const ch1 = this.charAt(1);
                    if (isEmpty(ch1) || (inFlow && flowIndicatorChars.has(ch1))) {
                        if (!inFlow)
                            this.indentNext = this.indentValue + 1;
                        else if (this.flowKey)
                            this.flowKey = false;
                        n += yield* this.pushCount(1);
                        n += yield* this.pushSpaces(true);
                        continue loop;
                    }
                }
            }
            break loop;
        }
        return n;
    }
    *pushTag() {
        if (this.charAt(1) === '<') {
            let i = this.pos + 2;
            let ch = this.buffer[i];
            while (!isEmpty(ch) && ch !== '>')
                ch = this.buffer[++i];
            return yield* this.pushToIndex(ch === '>' ? i + 1 : i, false);
        }
        else {
            let i = this.pos + 1;
            let ch = this.buffer[i];
            while (ch) {
                if (tagChars.has(ch))
                    ch = this.buffer[++i];
                else if (ch === '%' &&
                    hexDigits.has(this.buffer[i + 1]) &&
                    hexDigits.has(this.buffer[i + 2])) {
                    ch = this.buffer[(i += 3)];
                }
                else
                    break;
            }
            return yield* this.pushToIndex(i, false);
        }
    }
    *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === '\n')
            return yield* this.pushCount(1);
        else if (ch === '\r' && this.charAt(1) === '\n')
            return yield* this.pushCount(2);
        else
            return 0;
    }
    *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
            ch = this.buffer[++i];
        } while (ch === ' ' || (allowTabs && ch === '\t'));
        const n = i - this.pos;
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos = i;
        }
        return n;
    }
    *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
            ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
    }
}

exports.Lexer = Lexer;


/***/ }),

/***/ 6628:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Tracks newlines during parsing in order to provide an efficient API for
 * determining the one-indexed `{ line, col }` position for any offset
 * within the input.
 */
class LineCounter {
    constructor() {
        this.lineStarts = [];
        /**
         * Should be called in ascending order. Otherwise, call
         * `lineCounter.lineStarts.sort()` before calling `linePos()`.
         */
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        /**
         * Performs a binary search and returns the 1-indexed { line, col }
         * position of `offset`. If `line === 0`, `addNewLine` has never been
         * called or `offset` is before the first known newline.
         */
        this.linePos = (offset) => {
            let low = 0;
            let high = this.lineStarts.length;
            while (low < high) {
                const mid = (low + high) >> 1; // Math.floor((low + high) / 2)
                if (this.lineStarts[mid] < offset)
                    low = mid + 1;
                else
                    high = mid;
            }
            if (this.lineStarts[low] === offset)
                return { line: low + 1, col: 1 };
            if (low === 0)
                return { line: 0, col: offset };
            const start = this.lineStarts[low - 1];
            return { line: low, col: offset - start + 1 };
        };
    }
}

exports.LineCounter = LineCounter;


/***/ }),

/***/ 3456:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);

function includesToken(list, type) {
    for (let i = 0; i < list.length; ++i)
        if (list[i].type === type)
            return true;
    return false;
}
function findNonEmptyIndex(list) {
    for (let i = 0; i < list.length; ++i) {
        switch (list[i].type) {
            case 'space':
            case 'comment':
            case 'newline':
                break;
            default:
                return i;
        }
    }
    return -1;
}
function isFlowToken(token) {
    switch (token?.type) {
        case 'alias':
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'flow-collection':
            return true;
        default:
            return false;
    }
}
function getPrevProps(parent) {
    switch (parent.type) {
        case 'document':
            return parent.start;
        case 'block-map': {
            const it = parent.items[parent.items.length - 1];
            return it.sep ?? it.start;
        }
        case 'block-seq':
            return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
            return [];
    }
}
/** Note: May modify input array */
function getFirstKeyStartProps(prev) {
    if (prev.length === 0)
        return [];
    let i = prev.length;
    loop: while (--i >= 0) {
        switch (prev[i].type) {
            case 'doc-start':
            case 'explicit-key-ind':
            case 'map-value-ind':
            case 'seq-item-ind':
            case 'newline':
                break loop;
        }
    }
    while (prev[++i]?.type === 'space') {
        /* loop */
    }
    return prev.splice(i, prev.length);
}
function arrayPushArray(target, source) {
    // May exhaust call stack with large `source` array
    if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
    else
        for (let i = 0; i < source.length; ++i)
            target.push(source[i]);
}
function fixFlowSeqItems(fc) {
    if (fc.start.type === 'flow-seq-start') {
        for (const it of fc.items) {
            if (it.sep &&
                !it.value &&
                !includesToken(it.start, 'explicit-key-ind') &&
                !includesToken(it.sep, 'map-value-ind')) {
                if (it.key)
                    it.value = it.key;
                delete it.key;
                if (isFlowToken(it.value)) {
                    if (it.value.end)
                        arrayPushArray(it.value.end, it.sep);
                    else
                        it.value.end = it.sep;
                }
                else
                    arrayPushArray(it.start, it.sep);
                delete it.sep;
            }
        }
    }
}
/**
 * A YAML concrete syntax tree (CST) parser
 *
 * ```ts
 * const src: string = ...
 * for (const token of new Parser().parse(src)) {
 *   // token: Token
 * }
 * ```
 *
 * To use the parser with a user-provided lexer:
 *
 * ```ts
 * function* parse(source: string, lexer: Lexer) {
 *   const parser = new Parser()
 *   for (const lexeme of lexer.lex(source))
 *     yield* parser.next(lexeme)
 *   yield* parser.end()
 * }
 *
 * const src: string = ...
 * const lexer = new Lexer()
 * for (const token of parse(src, lexer)) {
 *   // token: Token
 * }
 * ```
 */
class Parser {
    /**
     * @param onNewLine - If defined, called separately with the start position of
     *   each new line (in `parse()`, including the start of input).
     */
    constructor(onNewLine) {
        /** If true, space and sequence indicators count as indentation */
        this.atNewLine = true;
        /** If true, next token is a scalar value */
        this.atScalar = false;
        /** Current indentation level */
        this.indent = 0;
        /** Current offset since the start of parsing */
        this.offset = 0;
        /** On the same line with a block map key */
        this.onKeyLine = false;
        /** Top indicates the node that's currently being built */
        this.stack = [];
        /** The source of the current token, set in parse() */
        this.source = '';
        /** The type of the current token, set in parse() */
        this.type = '';
        // Must be defined after `next()`
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
    }
    /**
     * Parse `source` as a YAML stream.
     * If `incomplete`, a part of the last line may be left as a buffer for the next call.
     *
     * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
     *
     * @returns A generator of tokens representing each directive, document, and other structure.
     */
    *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
            this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
            yield* this.next(lexeme);
        if (!incomplete)
            yield* this.end();
    }
    /**
     * Advance the parser by the `source` of one lexical token.
     */
    *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
            console.log('|', cst.prettyToken(source));
        if (this.atScalar) {
            this.atScalar = false;
            yield* this.step();
            this.offset += source.length;
            return;
        }
        const type = cst.tokenType(source);
        if (!type) {
            const message = `Not a YAML token: ${source}`;
            yield* this.pop({ type: 'error', offset: this.offset, message, source });
            this.offset += source.length;
        }
        else if (type === 'scalar') {
            this.atNewLine = false;
            this.atScalar = true;
            this.type = 'scalar';
        }
        else {
            this.type = type;
            yield* this.step();
            switch (type) {
                case 'newline':
                    this.atNewLine = true;
                    this.indent = 0;
                    if (this.onNewLine)
                        this.onNewLine(this.offset + source.length);
                    break;
                case 'space':
                    if (this.atNewLine && source[0] === ' ')
                        this.indent += source.length;
                    break;
                case 'explicit-key-ind':
                case 'map-value-ind':
                case 'seq-item-ind':
                    if (this.atNewLine)
                        this.indent += source.length;
                    break;
                case 'doc-mode':
                case 'flow-error-end':
                    return;
                default:
                    this.atNewLine = false;
            }
            this.offset += source.length;
        }
    }
    /** Call at end of input to push out any remaining constructions */
    *end() {
        while (this.stack.length > 0)
            yield* this.pop();
    }
    get sourceToken() {
        const st = {
            type: this.type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
        return st;
    }
    *step() {
        const top = this.peek(1);
        if (this.type === 'doc-end' && top?.type !== 'doc-end') {
            while (this.stack.length > 0)
                yield* this.pop();
            this.stack.push({
                type: 'doc-end',
                offset: this.offset,
                source: this.source
            });
            return;
        }
        if (!top)
            return yield* this.stream();
        switch (top.type) {
            case 'document':
                return yield* this.document(top);
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return yield* this.scalar(top);
            case 'block-scalar':
                return yield* this.blockScalar(top);
            case 'block-map':
                return yield* this.blockMap(top);
            case 'block-seq':
                return yield* this.blockSequence(top);
            case 'flow-collection':
                return yield* this.flowCollection(top);
            case 'doc-end':
                return yield* this.documentEnd(top);
        }
        /* istanbul ignore next should not happen */
        yield* this.pop();
    }
    peek(n) {
        return this.stack[this.stack.length - n];
    }
    *pop(error) {
        const token = error ?? this.stack.pop();
        /* istanbul ignore if should not happen */
        if (!token) {
            const message = 'Tried to pop an empty stack';
            yield { type: 'error', offset: this.offset, source: '', message };
        }
        else if (this.stack.length === 0) {
            yield token;
        }
        else {
            const top = this.peek(1);
            if (token.type === 'block-scalar') {
                // Block scalars use their parent rather than header indent
                token.indent = 'indent' in top ? top.indent : 0;
            }
            else if (token.type === 'flow-collection' && top.type === 'document') {
                // Ignore all indent for top-level flow collections
                token.indent = 0;
            }
            if (token.type === 'flow-collection')
                fixFlowSeqItems(token);
            switch (top.type) {
                case 'document':
                    top.value = token;
                    break;
                case 'block-scalar':
                    top.props.push(token); // error
                    break;
                case 'block-map': {
                    const it = top.items[top.items.length - 1];
                    if (it.value) {
                        top.items.push({ start: [], key: token, sep: [] });
                        this.onKeyLine = true;
                        return;
                    }
                    else if (it.sep) {
                        it.value = token;
                    }
                    else {
                        Object.assign(it, { key: token, sep: [] });
                        this.onKeyLine = !it.explicitKey;
                        return;
                    }
                    break;
                }
                case 'block-seq': {
                    const it = top.items[top.items.length - 1];
                    if (it.value)
                        top.items.push({ start: [], value: token });
                    else
                        it.value = token;
                    break;
                }
                case 'flow-collection': {
                    const it = top.items[top.items.length - 1];
                    if (!it || it.value)
                        top.items.push({ start: [], key: token, sep: [] });
                    else if (it.sep)
                        it.value = token;
                    else
                        Object.assign(it, { key: token, sep: [] });
                    return;
                }
                /* istanbul ignore next should not happen */
                default:
                    yield* this.pop();
                    yield* this.pop(token);
            }
            if ((top.type === 'document' ||
                top.type === 'block-map' ||
                top.type === 'block-seq') &&
                (token.type === 'block-map' || token.type === 'block-seq')) {
                const last = token.items[token.items.length - 1];
                if (last &&
                    !last.sep &&
                    !last.value &&
                    last.start.length > 0 &&
                    findNonEmptyIndex(last.start) === -1 &&
                    (token.indent === 0 ||
                        last.start.every(st => st.type !== 'comment' || st.indent < token.indent))) {
                    if (top.type === 'document')
                        top.end = last.start;
                    else
                        top.items.push({ start: last.start });
                    token.items.splice(-1, 1);
                }
            }
        }
    }
    *stream() {
        switch (this.type) {
            case 'directive-line':
                yield { type: 'directive', offset: this.offset, source: this.source };
                return;
            case 'byte-order-mark':
            case 'space':
            case 'comment':
            case 'newline':
                yield this.sourceToken;
                return;
            case 'doc-mode':
            case 'doc-start': {
                const doc = {
                    type: 'document',
                    offset: this.offset,
                    start: []
                };
                if (this.type === 'doc-start')
                    doc.start.push(this.sourceToken);
                this.stack.push(doc);
                return;
            }
        }
        yield {
            type: 'error',
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML stream`,
            source: this.source
        };
    }
    *document(doc) {
        if (doc.value)
            return yield* this.lineEnd(doc);
        switch (this.type) {
            case 'doc-start': {
                if (findNonEmptyIndex(doc.start) !== -1) {
                    yield* this.pop();
                    yield* this.step();
                }
                else
                    doc.start.push(this.sourceToken);
                return;
            }
            case 'anchor':
            case 'tag':
            case 'space':
            case 'comment':
            case 'newline':
                doc.start.push(this.sourceToken);
                return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
            this.stack.push(bv);
        else {
            yield {
                type: 'error',
                offset: this.offset,
                message: `Unexpected ${this.type} token in YAML document`,
                source: this.source
            };
        }
    }
    *scalar(scalar) {
        if (this.type === 'map-value-ind') {
            const prev = getPrevProps(this.peek(2));
            const start = getFirstKeyStartProps(prev);
            let sep;
            if (scalar.end) {
                sep = scalar.end;
                sep.push(this.sourceToken);
                delete scalar.end;
            }
            else
                sep = [this.sourceToken];
            const map = {
                type: 'block-map',
                offset: scalar.offset,
                indent: scalar.indent,
                items: [{ start, key: scalar, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
        }
        else
            yield* this.lineEnd(scalar);
    }
    *blockScalar(scalar) {
        switch (this.type) {
            case 'space':
            case 'comment':
            case 'newline':
                scalar.props.push(this.sourceToken);
                return;
            case 'scalar':
                scalar.source = this.source;
                // block-scalar source includes trailing newline
                this.atNewLine = true;
                this.indent = 0;
                if (this.onNewLine) {
                    let nl = this.source.indexOf('\n') + 1;
                    while (nl !== 0) {
                        this.onNewLine(this.offset + nl);
                        nl = this.source.indexOf('\n', nl) + 1;
                    }
                }
                yield* this.pop();
                break;
            /* istanbul ignore next should not happen */
            default:
                yield* this.pop();
                yield* this.step();
        }
    }
    *blockMap(map) {
        const it = map.items[map.items.length - 1];
        // it.sep is true-ish if pair already has key or : separator
        switch (this.type) {
            case 'newline':
                this.onKeyLine = false;
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    it.start.push(this.sourceToken);
                }
                return;
            case 'space':
            case 'comment':
                if (it.value) {
                    map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    if (this.atIndentedComment(it.start, map.indent)) {
                        const prev = map.items[map.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            map.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
        }
        if (this.indent >= map.indent) {
            const atMapIndent = !this.onKeyLine && this.indent === map.indent;
            const atNextItem = atMapIndent &&
                (it.sep || it.explicitKey) &&
                this.type !== 'seq-item-ind';
            // For empty nodes, assign newline-separated not indented empty tokens to following node
            let start = [];
            if (atNextItem && it.sep && !it.value) {
                const nl = [];
                for (let i = 0; i < it.sep.length; ++i) {
                    const st = it.sep[i];
                    switch (st.type) {
                        case 'newline':
                            nl.push(i);
                            break;
                        case 'space':
                            break;
                        case 'comment':
                            if (st.indent > map.indent)
                                nl.length = 0;
                            break;
                        default:
                            nl.length = 0;
                    }
                }
                if (nl.length >= 2)
                    start = it.sep.splice(nl[1]);
            }
            switch (this.type) {
                case 'anchor':
                case 'tag':
                    if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        it.sep.push(this.sourceToken);
                    }
                    else {
                        it.start.push(this.sourceToken);
                    }
                    return;
                case 'explicit-key-ind':
                    if (!it.sep && !it.explicitKey) {
                        it.start.push(this.sourceToken);
                        it.explicitKey = true;
                    }
                    else if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start, explicitKey: true });
                    }
                    else {
                        this.stack.push({
                            type: 'block-map',
                            offset: this.offset,
                            indent: this.indent,
                            items: [{ start: [this.sourceToken], explicitKey: true }]
                        });
                    }
                    this.onKeyLine = true;
                    return;
                case 'map-value-ind':
                    if (it.explicitKey) {
                        if (!it.sep) {
                            if (includesToken(it.start, 'newline')) {
                                Object.assign(it, { key: null, sep: [this.sourceToken] });
                            }
                            else {
                                const start = getFirstKeyStartProps(it.start);
                                this.stack.push({
                                    type: 'block-map',
                                    offset: this.offset,
                                    indent: this.indent,
                                    items: [{ start, key: null, sep: [this.sourceToken] }]
                                });
                            }
                        }
                        else if (it.value) {
                            map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else if (isFlowToken(it.key) &&
                            !includesToken(it.sep, 'newline')) {
                            const start = getFirstKeyStartProps(it.start);
                            const key = it.key;
                            const sep = it.sep;
                            sep.push(this.sourceToken);
                            // @ts-expect-error type guard is wrong here
                            delete it.key;
                            // @ts-expect-error type guard is wrong here
                            delete it.sep;
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key, sep }]
                            });
                        }
                        else if (start.length > 0) {
                            // Not actually at next item
                            it.sep = it.sep.concat(start, this.sourceToken);
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    else {
                        if (!it.sep) {
                            Object.assign(it, { key: null, sep: [this.sourceToken] });
                        }
                        else if (it.value || atNextItem) {
                            map.items.push({ start, key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start: [], key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    this.onKeyLine = true;
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (atNextItem || it.value) {
                        map.items.push({ start, key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        this.stack.push(fs);
                    }
                    else {
                        Object.assign(it, { key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    return;
                }
                default: {
                    const bv = this.startBlockValue(map);
                    if (bv) {
                        if (bv.type === 'block-seq') {
                            if (!it.explicitKey &&
                                it.sep &&
                                !includesToken(it.sep, 'newline')) {
                                yield* this.pop({
                                    type: 'error',
                                    offset: this.offset,
                                    message: 'Unexpected block-seq-ind on same line with key',
                                    source: this.source
                                });
                                return;
                            }
                        }
                        else if (atMapIndent) {
                            map.items.push({ start });
                        }
                        this.stack.push(bv);
                        return;
                    }
                }
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
            case 'newline':
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        seq.items.push({ start: [this.sourceToken] });
                }
                else
                    it.start.push(this.sourceToken);
                return;
            case 'space':
            case 'comment':
                if (it.value)
                    seq.items.push({ start: [this.sourceToken] });
                else {
                    if (this.atIndentedComment(it.start, seq.indent)) {
                        const prev = seq.items[seq.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            seq.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
            case 'anchor':
            case 'tag':
                if (it.value || this.indent <= seq.indent)
                    break;
                it.start.push(this.sourceToken);
                return;
            case 'seq-item-ind':
                if (this.indent !== seq.indent)
                    break;
                if (it.value || includesToken(it.start, 'seq-item-ind'))
                    seq.items.push({ start: [this.sourceToken] });
                else
                    it.start.push(this.sourceToken);
                return;
        }
        if (this.indent > seq.indent) {
            const bv = this.startBlockValue(seq);
            if (bv) {
                this.stack.push(bv);
                return;
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === 'flow-error-end') {
            let top;
            do {
                yield* this.pop();
                top = this.peek(1);
            } while (top?.type === 'flow-collection');
        }
        else if (fc.end.length === 0) {
            switch (this.type) {
                case 'comma':
                case 'explicit-key-ind':
                    if (!it || it.sep)
                        fc.items.push({ start: [this.sourceToken] });
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'map-value-ind':
                    if (!it || it.value)
                        fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        Object.assign(it, { key: null, sep: [this.sourceToken] });
                    return;
                case 'space':
                case 'comment':
                case 'newline':
                case 'anchor':
                case 'tag':
                    if (!it || it.value)
                        fc.items.push({ start: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (!it || it.value)
                        fc.items.push({ start: [], key: fs, sep: [] });
                    else if (it.sep)
                        this.stack.push(fs);
                    else
                        Object.assign(it, { key: fs, sep: [] });
                    return;
                }
                case 'flow-map-end':
                case 'flow-seq-end':
                    fc.end.push(this.sourceToken);
                    return;
            }
            const bv = this.startBlockValue(fc);
            /* istanbul ignore else should not happen */
            if (bv)
                this.stack.push(bv);
            else {
                yield* this.pop();
                yield* this.step();
            }
        }
        else {
            const parent = this.peek(2);
            if (parent.type === 'block-map' &&
                ((this.type === 'map-value-ind' && parent.indent === fc.indent) ||
                    (this.type === 'newline' &&
                        !parent.items[parent.items.length - 1].sep))) {
                yield* this.pop();
                yield* this.step();
            }
            else if (this.type === 'map-value-ind' &&
                parent.type !== 'flow-collection') {
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                fixFlowSeqItems(fc);
                const sep = fc.end.splice(1, fc.end.length);
                sep.push(this.sourceToken);
                const map = {
                    type: 'block-map',
                    offset: fc.offset,
                    indent: fc.indent,
                    items: [{ start, key: fc, sep }]
                };
                this.onKeyLine = true;
                this.stack[this.stack.length - 1] = map;
            }
            else {
                yield* this.lineEnd(fc);
            }
        }
    }
    flowScalar(type) {
        if (this.onNewLine) {
            let nl = this.source.indexOf('\n') + 1;
            while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf('\n', nl) + 1;
            }
        }
        return {
            type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
    }
    startBlockValue(parent) {
        switch (this.type) {
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return this.flowScalar(this.type);
            case 'block-scalar-header':
                return {
                    type: 'block-scalar',
                    offset: this.offset,
                    indent: this.indent,
                    props: [this.sourceToken],
                    source: ''
                };
            case 'flow-map-start':
            case 'flow-seq-start':
                return {
                    type: 'flow-collection',
                    offset: this.offset,
                    indent: this.indent,
                    start: this.sourceToken,
                    items: [],
                    end: []
                };
            case 'seq-item-ind':
                return {
                    type: 'block-seq',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [this.sourceToken] }]
                };
            case 'explicit-key-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                start.push(this.sourceToken);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, explicitKey: true }]
                };
            }
            case 'map-value-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                };
            }
        }
        return null;
    }
    atIndentedComment(start, indent) {
        if (this.type !== 'comment')
            return false;
        if (this.indent <= indent)
            return false;
        return start.every(st => st.type === 'newline' || st.type === 'space');
    }
    *documentEnd(docEnd) {
        if (this.type !== 'doc-mode') {
            if (docEnd.end)
                docEnd.end.push(this.sourceToken);
            else
                docEnd.end = [this.sourceToken];
            if (this.type === 'newline')
                yield* this.pop();
        }
    }
    *lineEnd(token) {
        switch (this.type) {
            case 'comma':
            case 'doc-start':
            case 'doc-end':
            case 'flow-seq-end':
            case 'flow-map-end':
            case 'map-value-ind':
                yield* this.pop();
                yield* this.step();
                break;
            case 'newline':
                this.onKeyLine = false;
            // fallthrough
            case 'space':
            case 'comment':
            default:
                // all other values are errors
                if (token.end)
                    token.end.push(this.sourceToken);
                else
                    token.end = [this.sourceToken];
                if (this.type === 'newline')
                    yield* this.pop();
        }
    }
}

exports.Parser = Parser;


/***/ }),

/***/ 4047:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var log = __nccwpck_require__(7249);
var identity = __nccwpck_require__(1127);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);

function parseOptions(options) {
    const prettyErrors = options.prettyErrors !== false;
    const lineCounter$1 = options.lineCounter || (prettyErrors && new lineCounter.LineCounter()) || null;
    return { lineCounter: lineCounter$1, prettyErrors };
}
/**
 * Parse the input as a stream of YAML documents.
 *
 * Documents should be separated from each other by `...` or `---` marker lines.
 *
 * @returns If an empty `docs` array is returned, it will be of type
 *   EmptyStream and contain additional stream information. In
 *   TypeScript, you should use `'empty' in docs` as a type guard for it.
 */
function parseAllDocuments(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    const docs = Array.from(composer$1.compose(parser$1.parse(source)));
    if (prettyErrors && lineCounter)
        for (const doc of docs) {
            doc.errors.forEach(errors.prettifyError(source, lineCounter));
            doc.warnings.forEach(errors.prettifyError(source, lineCounter));
        }
    if (docs.length > 0)
        return docs;
    return Object.assign([], { empty: true }, composer$1.streamInfo());
}
/** Parse an input string into a single YAML.Document */
function parseDocument(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    // `doc` is always set by compose.end(true) at the very latest
    let doc = null;
    for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
            doc = _doc;
        else if (doc.options.logLevel !== 'silent') {
            doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
            break;
        }
    }
    if (prettyErrors && lineCounter) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter));
    }
    return doc;
}
function parse(src, reviver, options) {
    let _reviver = undefined;
    if (typeof reviver === 'function') {
        _reviver = reviver;
    }
    else if (options === undefined && reviver && typeof reviver === 'object') {
        options = reviver;
    }
    const doc = parseDocument(src, options);
    if (!doc)
        return null;
    doc.warnings.forEach(warning => log.warn(doc.options.logLevel, warning));
    if (doc.errors.length > 0) {
        if (doc.options.logLevel !== 'silent')
            throw doc.errors[0];
        else
            doc.errors = [];
    }
    return doc.toJS(Object.assign({ reviver: _reviver }, options));
}
function stringify(value, replacer, options) {
    let _replacer = null;
    if (typeof replacer === 'function' || Array.isArray(replacer)) {
        _replacer = replacer;
    }
    else if (options === undefined && replacer) {
        options = replacer;
    }
    if (typeof options === 'string')
        options = options.length;
    if (typeof options === 'number') {
        const indent = Math.round(options);
        options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
    }
    if (value === undefined) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
            return undefined;
    }
    if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
    return new Document.Document(value, _replacer, options).toString(options);
}

exports.parse = parse;
exports.parseAllDocuments = parseAllDocuments;
exports.parseDocument = parseDocument;
exports.stringify = stringify;


/***/ }),

/***/ 5840:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var tags = __nccwpck_require__(18);

const sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
class Schema {
    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat)
            ? tags.getTags(compat, 'compat')
            : compat
                ? tags.getTags(null, compat)
                : null;
        this.name = (typeof schema === 'string' && schema) || 'core';
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        // Used by createMap()
        this.sortMapEntries =
            typeof sortMapEntries === 'function'
                ? sortMapEntries
                : sortMapEntries === true
                    ? sortMapEntriesByKey
                    : null;
    }
    clone() {
        const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
    }
}

exports.Schema = Schema;


/***/ }),

/***/ 7451:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLMap = __nccwpck_require__(4454);

const map = {
    collection: 'map',
    default: true,
    nodeClass: YAMLMap.YAMLMap,
    tag: 'tag:yaml.org,2002:map',
    resolve(map, onError) {
        if (!identity.isMap(map))
            onError('Expected a mapping for this tag');
        return map;
    },
    createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
};

exports.map = map;


/***/ }),

/***/ 3632:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const nullTag = {
    identify: value => value == null,
    createNode: () => new Scalar.Scalar(null),
    default: true,
    tag: 'tag:yaml.org,2002:null',
    test: /^(?:~|[Nn]ull|NULL)?$/,
    resolve: () => new Scalar.Scalar(null),
    stringify: ({ source }, ctx) => typeof source === 'string' && nullTag.test.test(source)
        ? source
        : ctx.options.nullStr
};

exports.nullTag = nullTag;


/***/ }),

/***/ 1706:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLSeq = __nccwpck_require__(2223);

const seq = {
    collection: 'seq',
    default: true,
    nodeClass: YAMLSeq.YAMLSeq,
    tag: 'tag:yaml.org,2002:seq',
    resolve(seq, onError) {
        if (!identity.isSeq(seq))
            onError('Expected a sequence for this tag');
        return seq;
    },
    createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
};

exports.seq = seq;


/***/ }),

/***/ 6464:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyString = __nccwpck_require__(3069);

const string = {
    identify: value => typeof value === 'string',
    default: true,
    tag: 'tag:yaml.org,2002:str',
    resolve: str => str,
    stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
    }
};

exports.string = string;


/***/ }),

/***/ 3959:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const boolTag = {
    identify: value => typeof value === 'boolean',
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
    resolve: str => new Scalar.Scalar(str[0] === 't' || str[0] === 'T'),
    stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
            const sv = source[0] === 't' || source[0] === 'T';
            if (value === sv)
                return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
};

exports.boolTag = boolTag;


/***/ }),

/***/ 8405:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: str => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
    resolve: str => parseFloat(str),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf('.');
        if (dot !== -1 && str[str.length - 1] === '0')
            node.minFractionDigits = str.length - dot - 1;
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 9874:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
const intResolve = (str, offset, radix, { intAsBigInt }) => (intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix));
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
    return stringifyNumber.stringifyNumber(node);
}
const intOct = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^0o[0-7]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
    stringify: node => intStringify(node, 8, '0o')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^0x[0-9a-fA-F]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 896:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.boolTag,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float
];

exports.schema = schema;


/***/ }),

/***/ 3559:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);

function intIdentify(value) {
    return typeof value === 'bigint' || Number.isInteger(value);
}
const stringifyJSON = ({ value }) => JSON.stringify(value);
const jsonScalars = [
    {
        identify: value => typeof value === 'string',
        default: true,
        tag: 'tag:yaml.org,2002:str',
        resolve: str => str,
        stringify: stringifyJSON
    },
    {
        identify: value => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: 'tag:yaml.org,2002:null',
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
    },
    {
        identify: value => typeof value === 'boolean',
        default: true,
        tag: 'tag:yaml.org,2002:bool',
        test: /^true$|^false$/,
        resolve: str => str === 'true',
        stringify: stringifyJSON
    },
    {
        identify: intIdentify,
        default: true,
        tag: 'tag:yaml.org,2002:int',
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
    },
    {
        identify: value => typeof value === 'number',
        default: true,
        tag: 'tag:yaml.org,2002:float',
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: str => parseFloat(str),
        stringify: stringifyJSON
    }
];
const jsonError = {
    default: true,
    tag: '',
    test: /^/,
    resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
    }
};
const schema = [map.map, seq.seq].concat(jsonScalars, jsonError);

exports.schema = schema;


/***/ }),

/***/ 18:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);
var schema = __nccwpck_require__(896);
var schema$1 = __nccwpck_require__(3559);
var binary = __nccwpck_require__(6083);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var schema$2 = __nccwpck_require__(5913);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schemas = new Map([
    ['core', schema.schema],
    ['failsafe', [map.map, seq.seq, string.string]],
    ['json', schema$1.schema],
    ['yaml11', schema$2.schema],
    ['yaml-1.1', schema$2.schema]
]);
const tagsByName = {
    binary: binary.binary,
    bool: bool.boolTag,
    float: float.float,
    floatExp: float.floatExp,
    floatNaN: float.floatNaN,
    floatTime: timestamp.floatTime,
    int: int.int,
    intHex: int.intHex,
    intOct: int.intOct,
    intTime: timestamp.intTime,
    map: map.map,
    merge: merge.merge,
    null: _null.nullTag,
    omap: omap.omap,
    pairs: pairs.pairs,
    seq: seq.seq,
    set: set.set,
    timestamp: timestamp.timestamp
};
const coreKnownTags = {
    'tag:yaml.org,2002:binary': binary.binary,
    'tag:yaml.org,2002:merge': merge.merge,
    'tag:yaml.org,2002:omap': omap.omap,
    'tag:yaml.org,2002:pairs': pairs.pairs,
    'tag:yaml.org,2002:set': set.set,
    'tag:yaml.org,2002:timestamp': timestamp.timestamp
};
function getTags(customTags, schemaName, addMergeTag) {
    const schemaTags = schemas.get(schemaName);
    if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge)
            ? schemaTags.concat(merge.merge)
            : schemaTags.slice();
    }
    let tags = schemaTags;
    if (!tags) {
        if (Array.isArray(customTags))
            tags = [];
        else {
            const keys = Array.from(schemas.keys())
                .filter(key => key !== 'yaml11')
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
    }
    if (Array.isArray(customTags)) {
        for (const tag of customTags)
            tags = tags.concat(tag);
    }
    else if (typeof customTags === 'function') {
        tags = customTags(tags.slice());
    }
    if (addMergeTag)
        tags = tags.concat(merge.merge);
    return tags.reduce((tags, tag) => {
        const tagObj = typeof tag === 'string' ? tagsByName[tag] : tag;
        if (!tagObj) {
            const tagName = JSON.stringify(tag);
            const keys = Object.keys(tagsByName)
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags.includes(tagObj))
            tags.push(tagObj);
        return tags;
    }, []);
}

exports.coreKnownTags = coreKnownTags;
exports.getTags = getTags;


/***/ }),

/***/ 6083:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_buffer = __nccwpck_require__(181);
var Scalar = __nccwpck_require__(3301);
var stringifyString = __nccwpck_require__(3069);

const binary = {
    identify: value => value instanceof Uint8Array, // Buffer inherits from Uint8Array
    default: false,
    tag: 'tag:yaml.org,2002:binary',
    /**
     * Returns a Buffer in node and an Uint8Array in browsers
     *
     * To use the resulting buffer as an image, you'll want to do something like:
     *
     *   const blob = new Blob([buffer], { type: 'image/jpeg' })
     *   document.querySelector('#photo').src = URL.createObjectURL(blob)
     */
    resolve(src, onError) {
        if (typeof node_buffer.Buffer === 'function') {
            return node_buffer.Buffer.from(src, 'base64');
        }
        else if (typeof atob === 'function') {
            // On IE 11, atob() can't handle newlines
            const str = atob(src.replace(/[\n\r]/g, ''));
            const buffer = new Uint8Array(str.length);
            for (let i = 0; i < str.length; ++i)
                buffer[i] = str.charCodeAt(i);
            return buffer;
        }
        else {
            onError('This environment does not support reading binary tags; either Buffer or atob is required');
            return src;
        }
    },
    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
            return '';
        const buf = value; // checked earlier by binary.identify()
        let str;
        if (typeof node_buffer.Buffer === 'function') {
            str =
                buf instanceof node_buffer.Buffer
                    ? buf.toString('base64')
                    : node_buffer.Buffer.from(buf.buffer).toString('base64');
        }
        else if (typeof btoa === 'function') {
            let s = '';
            for (let i = 0; i < buf.length; ++i)
                s += String.fromCharCode(buf[i]);
            str = btoa(s);
        }
        else {
            throw new Error('This environment does not support writing binary tags; either Buffer or btoa is required');
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
            const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
            const n = Math.ceil(str.length / lineWidth);
            const lines = new Array(n);
            for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
                lines[i] = str.substr(o, lineWidth);
            }
            str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? '\n' : ' ');
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
    }
};

exports.binary = binary;


/***/ }),

/***/ 8398:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function boolStringify({ value, source }, ctx) {
    const boolObj = value ? trueTag : falseTag;
    if (source && boolObj.test.test(source))
        return source;
    return value ? ctx.options.trueStr : ctx.options.falseStr;
}
const trueTag = {
    identify: value => value === true,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => new Scalar.Scalar(true),
    stringify: boolStringify
};
const falseTag = {
    identify: value => value === false,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => new Scalar.Scalar(false),
    stringify: boolStringify
};

exports.falseTag = falseTag;
exports.trueTag = trueTag;


/***/ }),

/***/ 5782:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str.replace(/_/g, '')),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, '')));
        const dot = str.indexOf('.');
        if (dot !== -1) {
            const f = str.substring(dot + 1).replace(/_/g, '');
            if (f[f.length - 1] === '0')
                node.minFractionDigits = f.length;
        }
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 873:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
function intResolve(str, offset, radix, { intAsBigInt }) {
    const sign = str[0];
    if (sign === '-' || sign === '+')
        offset += 1;
    str = str.substring(offset).replace(/_/g, '');
    if (intAsBigInt) {
        switch (radix) {
            case 2:
                str = `0b${str}`;
                break;
            case 8:
                str = `0o${str}`;
                break;
            case 16:
                str = `0x${str}`;
                break;
        }
        const n = BigInt(str);
        return sign === '-' ? BigInt(-1) * n : n;
    }
    const n = parseInt(str, radix);
    return sign === '-' ? -1 * n : n;
}
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? '-' + prefix + str.substr(1) : prefix + str;
    }
    return stringifyNumber.stringifyNumber(node);
}
const intBin = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'BIN',
    test: /^[-+]?0b[0-1_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
    stringify: node => intStringify(node, 2, '0b')
};
const intOct = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^[-+]?0[0-7_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
    stringify: node => intStringify(node, 8, '0')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9][0-9_]*$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^[-+]?0x[0-9a-fA-F_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intBin = intBin;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 452:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

// If the value associated with a merge key is a single mapping node, each of
// its key/value pairs is inserted into the current mapping, unless the key
// already exists in it. If the value associated with the merge key is a
// sequence, then this sequence is expected to contain mapping nodes and each
// of these nodes is merged in turn according to its order in the sequence.
// Keys in mapping nodes earlier in the sequence override keys specified in
// later mapping nodes. -- http://yaml.org/type/merge.html
const MERGE_KEY = '<<';
const merge = {
    identify: value => value === MERGE_KEY ||
        (typeof value === 'symbol' && value.description === MERGE_KEY),
    default: 'key',
    tag: 'tag:yaml.org,2002:merge',
    test: /^<<$/,
    resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
    }),
    stringify: () => MERGE_KEY
};
const isMergeKey = (ctx, key) => (merge.identify(key) ||
    (identity.isScalar(key) &&
        (!key.type || key.type === Scalar.Scalar.PLAIN) &&
        merge.identify(key.value))) &&
    ctx?.doc.schema.tags.some(tag => tag.tag === merge.tag && tag.default);
function addMergeToJSMap(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (identity.isSeq(source))
        for (const it of source.items)
            mergeValue(ctx, map, it);
    else if (Array.isArray(source))
        for (const it of source)
            mergeValue(ctx, map, it);
    else
        mergeValue(ctx, map, source);
}
function mergeValue(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (!identity.isMap(source))
        throw new Error('Merge sources must be maps or map aliases');
    const srcMap = source.toJSON(null, ctx, Map);
    for (const [key, value] of srcMap) {
        if (map instanceof Map) {
            if (!map.has(key))
                map.set(key, value);
        }
        else if (map instanceof Set) {
            map.add(key);
        }
        else if (!Object.prototype.hasOwnProperty.call(map, key)) {
            Object.defineProperty(map, key, {
                value,
                writable: true,
                enumerable: true,
                configurable: true
            });
        }
    }
    return map;
}
function resolveAliasValue(ctx, value) {
    return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
}

exports.addMergeToJSMap = addMergeToJSMap;
exports.isMergeKey = isMergeKey;
exports.merge = merge;


/***/ }),

/***/ 303:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var pairs = __nccwpck_require__(8385);

class YAMLOMap extends YAMLSeq.YAMLSeq {
    constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = YAMLOMap.tag;
    }
    /**
     * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
     * but TypeScript won't allow widening the signature of a child method.
     */
    toJSON(_, ctx) {
        if (!ctx)
            return super.toJSON(_);
        const map = new Map();
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const pair of this.items) {
            let key, value;
            if (identity.isPair(pair)) {
                key = toJS.toJS(pair.key, '', ctx);
                value = toJS.toJS(pair.value, key, ctx);
            }
            else {
                key = toJS.toJS(pair, '', ctx);
            }
            if (map.has(key))
                throw new Error('Ordered maps must not include duplicate keys');
            map.set(key, value);
        }
        return map;
    }
    static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap = new this();
        omap.items = pairs$1.items;
        return omap;
    }
}
YAMLOMap.tag = 'tag:yaml.org,2002:omap';
const omap = {
    collection: 'seq',
    identify: value => value instanceof Map,
    nodeClass: YAMLOMap,
    default: false,
    tag: 'tag:yaml.org,2002:omap',
    resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
            if (identity.isScalar(key)) {
                if (seenKeys.includes(key.value)) {
                    onError(`Ordered maps must not include duplicate keys: ${key.value}`);
                }
                else {
                    seenKeys.push(key.value);
                }
            }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
    },
    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
};

exports.YAMLOMap = YAMLOMap;
exports.omap = omap;


/***/ }),

/***/ 8385:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLSeq = __nccwpck_require__(2223);

function resolvePairs(seq, onError) {
    if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
            let item = seq.items[i];
            if (identity.isPair(item))
                continue;
            else if (identity.isMap(item)) {
                if (item.items.length > 1)
                    onError('Each pair must have its own sequence indicator');
                const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
                if (item.commentBefore)
                    pair.key.commentBefore = pair.key.commentBefore
                        ? `${item.commentBefore}\n${pair.key.commentBefore}`
                        : item.commentBefore;
                if (item.comment) {
                    const cn = pair.value ?? pair.key;
                    cn.comment = cn.comment
                        ? `${item.comment}\n${cn.comment}`
                        : item.comment;
                }
                item = pair;
            }
            seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
    }
    else
        onError('Expected a sequence for this tag');
    return seq;
}
function createPairs(schema, iterable, ctx) {
    const { replacer } = ctx;
    const pairs = new YAMLSeq.YAMLSeq(schema);
    pairs.tag = 'tag:yaml.org,2002:pairs';
    let i = 0;
    if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
            if (typeof replacer === 'function')
                it = replacer.call(iterable, String(i++), it);
            let key, value;
            if (Array.isArray(it)) {
                if (it.length === 2) {
                    key = it[0];
                    value = it[1];
                }
                else
                    throw new TypeError(`Expected [key, value] tuple: ${it}`);
            }
            else if (it && it instanceof Object) {
                const keys = Object.keys(it);
                if (keys.length === 1) {
                    key = keys[0];
                    value = it[key];
                }
                else {
                    throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
                }
            }
            else {
                key = it;
            }
            pairs.items.push(Pair.createPair(key, value, ctx));
        }
    return pairs;
}
const pairs = {
    collection: 'seq',
    default: false,
    tag: 'tag:yaml.org,2002:pairs',
    resolve: resolvePairs,
    createNode: createPairs
};

exports.createPairs = createPairs;
exports.pairs = pairs;
exports.resolvePairs = resolvePairs;


/***/ }),

/***/ 5913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var binary = __nccwpck_require__(6083);
var bool = __nccwpck_require__(8398);
var float = __nccwpck_require__(5782);
var int = __nccwpck_require__(873);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.trueTag,
    bool.falseTag,
    int.intBin,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float,
    binary.binary,
    merge.merge,
    omap.omap,
    pairs.pairs,
    set.set,
    timestamp.intTime,
    timestamp.floatTime,
    timestamp.timestamp
];

exports.schema = schema;


/***/ }),

/***/ 1528:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);

class YAMLSet extends YAMLMap.YAMLMap {
    constructor(schema) {
        super(schema);
        this.tag = YAMLSet.tag;
    }
    add(key) {
        let pair;
        if (identity.isPair(key))
            pair = key;
        else if (key &&
            typeof key === 'object' &&
            'key' in key &&
            'value' in key &&
            key.value === null)
            pair = new Pair.Pair(key.key, null);
        else
            pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
            this.items.push(pair);
    }
    /**
     * If `keepPair` is `true`, returns the Pair matching `key`.
     * Otherwise, returns the value of that Pair's key.
     */
    get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair)
            ? identity.isScalar(pair.key)
                ? pair.key.value
                : pair.key
            : pair;
    }
    set(key, value) {
        if (typeof value !== 'boolean')
            throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
            this.items.splice(this.items.indexOf(prev), 1);
        }
        else if (!prev && value) {
            this.items.push(new Pair.Pair(key));
        }
    }
    toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        if (this.hasAllNullValues(true))
            return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
            throw new Error('Set items must all have null values');
    }
    static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
            for (let value of iterable) {
                if (typeof replacer === 'function')
                    value = replacer.call(iterable, value, value);
                set.items.push(Pair.createPair(value, null, ctx));
            }
        return set;
    }
}
YAMLSet.tag = 'tag:yaml.org,2002:set';
const set = {
    collection: 'map',
    identify: value => value instanceof Set,
    nodeClass: YAMLSet,
    default: false,
    tag: 'tag:yaml.org,2002:set',
    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
    resolve(map, onError) {
        if (identity.isMap(map)) {
            if (map.hasAllNullValues(true))
                return Object.assign(new YAMLSet(), map);
            else
                onError('Set items must all have null values');
        }
        else
            onError('Expected a mapping for this tag');
        return map;
    }
};

exports.YAMLSet = YAMLSet;
exports.set = set;


/***/ }),

/***/ 6752:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

/** Internal types handle bigint as number, because TS can't figure it out. */
function parseSexagesimal(str, asBigInt) {
    const sign = str[0];
    const parts = sign === '-' || sign === '+' ? str.substring(1) : str;
    const num = (n) => asBigInt ? BigInt(n) : Number(n);
    const res = parts
        .replace(/_/g, '')
        .split(':')
        .reduce((res, p) => res * num(60) + num(p), num(0));
    return (sign === '-' ? num(-1) * res : res);
}
/**
 * hhhh:mm:ss.sss
 *
 * Internal types handle bigint as number, because TS can't figure it out.
 */
function stringifySexagesimal(node) {
    let { value } = node;
    let num = (n) => n;
    if (typeof value === 'bigint')
        num = n => BigInt(n);
    else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
    let sign = '';
    if (value < 0) {
        sign = '-';
        value *= num(-1);
    }
    const _60 = num(60);
    const parts = [value % _60]; // seconds, including ms
    if (value < 60) {
        parts.unshift(0); // at least one : is required
    }
    else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60); // minutes
        if (value >= 60) {
            value = (value - parts[0]) / _60;
            parts.unshift(value); // hours
        }
    }
    return (sign +
        parts
            .map(n => String(n).padStart(2, '0'))
            .join(':')
            .replace(/000000\d*$/, '') // % 60 may introduce error
    );
}
const intTime = {
    identify: value => typeof value === 'bigint' || Number.isInteger(value),
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
    stringify: stringifySexagesimal
};
const floatTime = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
    resolve: str => parseSexagesimal(str, false),
    stringify: stringifySexagesimal
};
const timestamp = {
    identify: value => value instanceof Date,
    default: true,
    tag: 'tag:yaml.org,2002:timestamp',
    // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
    // may be omitted altogether, resulting in a date format. In such a case, the time part is
    // assumed to be 00:00:00Z (start of day, UTC).
    test: RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})' + // YYYY-Mm-Dd
        '(?:' + // time is optional
        '(?:t|T|[ \\t]+)' + // t | T | whitespace
        '([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)' + // Hh:Mm:Ss(.ss)?
        '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?' + // Z | +5 | -03:30
        ')?$'),
    resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
            throw new Error('!!timestamp expects a date, starting with yyyy-mm-dd');
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== 'Z') {
            let d = parseSexagesimal(tz, false);
            if (Math.abs(d) < 30)
                d *= 60;
            date -= 60000 * d;
        }
        return new Date(date);
    },
    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, '') ?? ''
};

exports.floatTime = floatTime;
exports.intTime = intTime;
exports.timestamp = timestamp;


/***/ }),

/***/ 4475:
/***/ ((__unused_webpack_module, exports) => {



const FOLD_FLOW = 'flow';
const FOLD_BLOCK = 'block';
const FOLD_QUOTED = 'quoted';
/**
 * Tries to keep input at up to `lineWidth` characters, splitting only on spaces
 * not followed by newlines or spaces unless `mode` is `'quoted'`. Lines are
 * terminated with `\n` and started with `indent`.
 */
function foldFlowLines(text, indent, mode = 'flow', { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
    if (!lineWidth || lineWidth < 0)
        return text;
    if (lineWidth < minContentWidth)
        minContentWidth = 0;
    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
    if (text.length <= endStep)
        return text;
    const folds = [];
    const escapedFolds = {};
    let end = lineWidth - indent.length;
    if (typeof indentAtStart === 'number') {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
            folds.push(0);
        else
            end = lineWidth - indentAtStart;
    }
    let split = undefined;
    let prev = undefined;
    let overflow = false;
    let i = -1;
    let escStart = -1;
    let escEnd = -1;
    if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
            end = i + endStep;
    }
    for (let ch; (ch = text[(i += 1)]);) {
        if (mode === FOLD_QUOTED && ch === '\\') {
            escStart = i;
            switch (text[i + 1]) {
                case 'x':
                    i += 3;
                    break;
                case 'u':
                    i += 5;
                    break;
                case 'U':
                    i += 9;
                    break;
                default:
                    i += 1;
            }
            escEnd = i;
        }
        if (ch === '\n') {
            if (mode === FOLD_BLOCK)
                i = consumeMoreIndentedLines(text, i, indent.length);
            end = i + indent.length + endStep;
            split = undefined;
        }
        else {
            if (ch === ' ' &&
                prev &&
                prev !== ' ' &&
                prev !== '\n' &&
                prev !== '\t') {
                // space surrounded by non-space can be replaced with newline + indent
                const next = text[i + 1];
                if (next && next !== ' ' && next !== '\n' && next !== '\t')
                    split = i;
            }
            if (i >= end) {
                if (split) {
                    folds.push(split);
                    end = split + endStep;
                    split = undefined;
                }
                else if (mode === FOLD_QUOTED) {
                    // white-space collected at end may stretch past lineWidth
                    while (prev === ' ' || prev === '\t') {
                        prev = ch;
                        ch = text[(i += 1)];
                        overflow = true;
                    }
                    // Account for newline escape, but don't break preceding escape
                    const j = i > escEnd + 1 ? i - 2 : escStart - 1;
                    // Bail out if lineWidth & minContentWidth are shorter than an escape string
                    if (escapedFolds[j])
                        return text;
                    folds.push(j);
                    escapedFolds[j] = true;
                    end = j + endStep;
                    split = undefined;
                }
                else {
                    overflow = true;
                }
            }
        }
        prev = ch;
    }
    if (overflow && onOverflow)
        onOverflow();
    if (folds.length === 0)
        return text;
    if (onFold)
        onFold();
    let res = text.slice(0, folds[0]);
    for (let i = 0; i < folds.length; ++i) {
        const fold = folds[i];
        const end = folds[i + 1] || text.length;
        if (fold === 0)
            res = `\n${indent}${text.slice(0, end)}`;
        else {
            if (mode === FOLD_QUOTED && escapedFolds[fold])
                res += `${text[fold]}\\`;
            res += `\n${indent}${text.slice(fold + 1, end)}`;
        }
    }
    return res;
}
/**
 * Presumes `i + 1` is at the start of a line
 * @returns index of last newline in more-indented block
 */
function consumeMoreIndentedLines(text, i, indent) {
    let end = i;
    let start = i + 1;
    let ch = text[start];
    while (ch === ' ' || ch === '\t') {
        if (i < start + indent) {
            ch = text[++i];
        }
        else {
            do {
                ch = text[++i];
            } while (ch && ch !== '\n');
            end = i;
            start = i + 1;
            ch = text[start];
        }
    }
    return end;
}

exports.FOLD_BLOCK = FOLD_BLOCK;
exports.FOLD_FLOW = FOLD_FLOW;
exports.FOLD_QUOTED = FOLD_QUOTED;
exports.foldFlowLines = foldFlowLines;


/***/ }),

/***/ 2148:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var identity = __nccwpck_require__(1127);
var stringifyComment = __nccwpck_require__(9799);
var stringifyString = __nccwpck_require__(3069);

function createStringifyContext(doc, options) {
    const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: 'PLAIN',
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: 'false',
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: 'null',
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: 'true',
        verifyAliasOrder: true
    }, doc.schema.toStringOptions, options);
    let inFlow;
    switch (opt.collectionStyle) {
        case 'block':
            inFlow = false;
            break;
        case 'flow':
            inFlow = true;
            break;
        default:
            inFlow = null;
    }
    return {
        anchors: new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? ' ' : '',
        indent: '',
        indentStep: typeof opt.indent === 'number' ? ' '.repeat(opt.indent) : '  ',
        inFlow,
        options: opt
    };
}
function getTagObject(tags, item) {
    if (item.tag) {
        const match = tags.filter(t => t.tag === item.tag);
        if (match.length > 0)
            return match.find(t => t.format === item.format) ?? match[0];
    }
    let tagObj = undefined;
    let obj;
    if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter(t => t.identify?.(obj));
        if (match.length > 1) {
            const testMatch = match.filter(t => t.test);
            if (testMatch.length > 0)
                match = testMatch;
        }
        tagObj =
            match.find(t => t.format === item.format) ?? match.find(t => !t.format);
    }
    else {
        obj = item;
        tagObj = tags.find(t => t.nodeClass && obj instanceof t.nodeClass);
    }
    if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? 'null' : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
    }
    return tagObj;
}
// needs to be called before value stringifier to allow for circular anchor refs
function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
    if (!doc.directives)
        return '';
    const props = [];
    const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
    if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
    }
    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
    if (tag)
        props.push(doc.directives.tagString(tag));
    return props.join(' ');
}
function stringify(item, ctx, onComment, onChompKeep) {
    if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
    if (identity.isAlias(item)) {
        if (ctx.doc.directives)
            return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
            throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        }
        else {
            if (ctx.resolvedAliases)
                ctx.resolvedAliases.add(item);
            else
                ctx.resolvedAliases = new Set([item]);
            item = item.resolve(ctx.doc);
        }
    }
    let tagObj = undefined;
    const node = identity.isNode(item)
        ? item
        : ctx.doc.createNode(item, { onTagObj: o => (tagObj = o) });
    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
    const props = stringifyProps(node, tagObj, ctx);
    if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
    const str = typeof tagObj.stringify === 'function'
        ? tagObj.stringify(node, ctx, onComment, onChompKeep)
        : identity.isScalar(node)
            ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep)
            : node.toString(ctx, onComment, onChompKeep);
    if (!props)
        return str;
    return identity.isScalar(node) || str[0] === '{' || str[0] === '['
        ? `${props} ${str}`
        : `${props}\n${ctx.indent}${str}`;
}

exports.createStringifyContext = createStringifyContext;
exports.stringify = stringify;


/***/ }),

/***/ 1212:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyCollection(collection, ctx, options) {
    const flow = ctx.inFlow ?? collection.flow;
    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
    return stringify(collection, ctx, options);
}
function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
    const { indent, options: { commentString } } = ctx;
    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
    let chompKeep = false; // flag for the preceding node's status
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (!chompKeep && item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (!chompKeep && ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
            }
        }
        chompKeep = false;
        let str = stringify.stringify(item, itemCtx, () => (comment = null), () => (chompKeep = true));
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        if (chompKeep && comment)
            chompKeep = false;
        lines.push(blockItemPrefix + str);
    }
    let str;
    if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
    }
    else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
            const line = lines[i];
            str += line ? `\n${indent}${line}` : '\n';
        }
    }
    if (comment) {
        str += '\n' + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
            onComment();
    }
    else if (chompKeep && onChompKeep)
        onChompKeep();
    return str;
}
function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
    itemIndent += indentStep;
    const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
    });
    let reqNewline = false;
    let linesAtValue = 0;
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, false);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, false);
                if (ik.comment)
                    reqNewline = true;
            }
            const iv = identity.isNode(item.value) ? item.value : null;
            if (iv) {
                if (iv.comment)
                    comment = iv.comment;
                if (iv.commentBefore)
                    reqNewline = true;
            }
            else if (item.value == null && ik?.comment) {
                comment = ik.comment;
            }
        }
        if (comment)
            reqNewline = true;
        let str = stringify.stringify(item, itemCtx, () => (comment = null));
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes('\n'));
        if (i < items.length - 1) {
            str += ',';
        }
        else if (ctx.options.trailingComma) {
            if (ctx.options.lineWidth > 0) {
                reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) +
                    (str.length + 2) >
                    ctx.options.lineWidth);
            }
            if (reqNewline) {
                str += ',';
            }
        }
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
    }
    const { start, end } = flowChars;
    if (lines.length === 0) {
        return start + end;
    }
    else {
        if (!reqNewline) {
            const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
            reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
            let str = start;
            for (const line of lines)
                str += line ? `\n${indentStep}${indent}${line}` : '\n';
            return `${str}\n${indent}${end}`;
        }
        else {
            return `${start}${fcPadding}${lines.join(' ')}${fcPadding}${end}`;
        }
    }
}
function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
    if (comment && chompKeep)
        comment = comment.replace(/^\n+/, '');
    if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart()); // Avoid double indent on first line
    }
}

exports.stringifyCollection = stringifyCollection;


/***/ }),

/***/ 9799:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringifies a comment.
 *
 * Empty comment lines are left empty,
 * lines consisting of a single space are replaced by `#`,
 * and all other lines are prefixed with a `#`.
 */
const stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, '#');
function indentComment(comment, indent) {
    if (/^\n+$/.test(comment))
        return comment.substring(1);
    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
}
const lineComment = (str, indent, comment) => str.endsWith('\n')
    ? indentComment(comment, indent)
    : comment.includes('\n')
        ? '\n' + indentComment(comment, indent)
        : (str.endsWith(' ') ? '' : ' ') + comment;

exports.indentComment = indentComment;
exports.lineComment = lineComment;
exports.stringifyComment = stringifyComment;


/***/ }),

/***/ 6829:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyDocument(doc, options) {
    const lines = [];
    let hasDirectives = options.directives === true;
    if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
            lines.push(dir);
            hasDirectives = true;
        }
        else if (doc.directives.docStart)
            hasDirectives = true;
    }
    if (hasDirectives)
        lines.push('---');
    const ctx = stringify.createStringifyContext(doc, options);
    const { commentString } = ctx.options;
    if (doc.commentBefore) {
        if (lines.length !== 1)
            lines.unshift('');
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ''));
    }
    let chompKeep = false;
    let contentComment = null;
    if (doc.contents) {
        if (identity.isNode(doc.contents)) {
            if (doc.contents.spaceBefore && hasDirectives)
                lines.push('');
            if (doc.contents.commentBefore) {
                const cs = commentString(doc.contents.commentBefore);
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            // top-level block scalars need to be indented if followed by a comment
            ctx.forceBlockIndent = !!doc.comment;
            contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? undefined : () => (chompKeep = true);
        let body = stringify.stringify(doc.contents, ctx, () => (contentComment = null), onChompKeep);
        if (contentComment)
            body += stringifyComment.lineComment(body, '', commentString(contentComment));
        if ((body[0] === '|' || body[0] === '>') &&
            lines[lines.length - 1] === '---') {
            // Top-level block scalars with a preceding doc marker ought to use the
            // same line for their header.
            lines[lines.length - 1] = `--- ${body}`;
        }
        else
            lines.push(body);
    }
    else {
        lines.push(stringify.stringify(doc.contents, ctx));
    }
    if (doc.directives?.docEnd) {
        if (doc.comment) {
            const cs = commentString(doc.comment);
            if (cs.includes('\n')) {
                lines.push('...');
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            else {
                lines.push(`... ${cs}`);
            }
        }
        else {
            lines.push('...');
        }
    }
    else {
        let dc = doc.comment;
        if (dc && chompKeep)
            dc = dc.replace(/^\n+/, '');
        if (dc) {
            if ((!chompKeep || contentComment) && lines[lines.length - 1] !== '')
                lines.push('');
            lines.push(stringifyComment.indentComment(commentString(dc), ''));
        }
    }
    return lines.join('\n') + '\n';
}

exports.stringifyDocument = stringifyDocument;


/***/ }),

/***/ 8689:
/***/ ((__unused_webpack_module, exports) => {



function stringifyNumber({ format, minFractionDigits, tag, value }) {
    if (typeof value === 'bigint')
        return String(value);
    const num = typeof value === 'number' ? value : Number(value);
    if (!isFinite(num))
        return isNaN(num) ? '.nan' : num < 0 ? '-.inf' : '.inf';
    let n = Object.is(value, -0) ? '-0' : JSON.stringify(value);
    if (!format &&
        minFractionDigits &&
        (!tag || tag === 'tag:yaml.org,2002:float') &&
        /^-?\d/.test(n) &&
        !n.includes('e')) {
        let i = n.indexOf('.');
        if (i < 0) {
            i = n.length;
            n += '.';
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
            n += '0';
    }
    return n;
}

exports.stringifyNumber = stringifyNumber;


/***/ }),

/***/ 9748:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
    let keyComment = (identity.isNode(key) && key.comment) || null;
    if (simpleKeys) {
        if (keyComment) {
            throw new Error('With simple keys, key nodes cannot have comments');
        }
        if (identity.isCollection(key) || (!identity.isNode(key) && typeof key === 'object')) {
            const msg = 'With simple keys, collection cannot be used as a key value';
            throw new Error(msg);
        }
    }
    let explicitKey = !simpleKeys &&
        (!key ||
            (keyComment && value == null && !ctx.inFlow) ||
            identity.isCollection(key) ||
            (identity.isScalar(key)
                ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL
                : typeof key === 'object'));
    ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
    });
    let keyCommentDone = false;
    let chompKeep = false;
    let str = stringify.stringify(key, ctx, () => (keyCommentDone = true), () => (chompKeep = true));
    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
            throw new Error('With simple keys, single line scalar must not span more than 1024 characters');
        explicitKey = true;
    }
    if (ctx.inFlow) {
        if (allNullValues || value == null) {
            if (keyCommentDone && onComment)
                onComment();
            return str === '' ? '?' : explicitKey ? `? ${str}` : str;
        }
    }
    else if ((allNullValues && !simpleKeys) || (value == null && explicitKey)) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        }
        else if (chompKeep && onChompKeep)
            onChompKeep();
        return str;
    }
    if (keyCommentDone)
        keyComment = null;
    if (explicitKey) {
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}\n${indent}:`;
    }
    else {
        str = `${str}:`;
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
    }
    let vsb, vcb, valueComment;
    if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
    }
    else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === 'object')
            value = doc.createNode(value);
    }
    ctx.implicitKey = false;
    if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
    chompKeep = false;
    if (!indentSeq &&
        indentStep.length >= 2 &&
        !ctx.inFlow &&
        !explicitKey &&
        identity.isSeq(value) &&
        !value.flow &&
        !value.tag &&
        !value.anchor) {
        // If indentSeq === false, consider '- ' as part of indentation where possible
        ctx.indent = ctx.indent.substring(2);
    }
    let valueCommentDone = false;
    const valueStr = stringify.stringify(value, ctx, () => (valueCommentDone = true), () => (chompKeep = true));
    let ws = ' ';
    if (keyComment || vsb || vcb) {
        ws = vsb ? '\n' : '';
        if (vcb) {
            const cs = commentString(vcb);
            ws += `\n${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === '' && !ctx.inFlow) {
            if (ws === '\n' && valueComment)
                ws = '\n\n';
        }
        else {
            ws += `\n${ctx.indent}`;
        }
    }
    else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf('\n');
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
            let hasPropsLine = false;
            if (hasNewline && (vs0 === '&' || vs0 === '!')) {
                let sp0 = valueStr.indexOf(' ');
                if (vs0 === '&' &&
                    sp0 !== -1 &&
                    sp0 < nl0 &&
                    valueStr[sp0 + 1] === '!') {
                    sp0 = valueStr.indexOf(' ', sp0 + 1);
                }
                if (sp0 === -1 || nl0 < sp0)
                    hasPropsLine = true;
            }
            if (!hasPropsLine)
                ws = `\n${ctx.indent}`;
        }
    }
    else if (valueStr === '' || valueStr[0] === '\n') {
        ws = '';
    }
    str += ws + valueStr;
    if (ctx.inFlow) {
        if (valueCommentDone && onComment)
            onComment();
    }
    else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
    }
    else if (chompKeep && onChompKeep) {
        onChompKeep();
    }
    return str;
}

exports.stringifyPair = stringifyPair;


/***/ }),

/***/ 3069:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var foldFlowLines = __nccwpck_require__(4475);

const getFoldOptions = (ctx, isBlock) => ({
    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
    lineWidth: ctx.options.lineWidth,
    minContentWidth: ctx.options.minContentWidth
});
// Also checks for lines starting with %, as parsing the output as YAML 1.1 will
// presume that's starting a new document.
const containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
function lineLengthOverLimit(str, lineWidth, indentLength) {
    if (!lineWidth || lineWidth < 0)
        return false;
    const limit = lineWidth - indentLength;
    const strLen = str.length;
    if (strLen <= limit)
        return false;
    for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === '\n') {
            if (i - start > limit)
                return true;
            start = i + 1;
            if (strLen - start <= limit)
                return false;
        }
    }
    return true;
}
function doubleQuotedString(value, ctx) {
    const json = JSON.stringify(value);
    if (ctx.options.doubleQuotedAsJSON)
        return json;
    const { implicitKey } = ctx;
    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    let str = '';
    let start = 0;
    for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
            // space before newline needs to be escaped to not be folded
            str += json.slice(start, i) + '\\ ';
            i += 1;
            start = i;
            ch = '\\';
        }
        if (ch === '\\')
            switch (json[i + 1]) {
                case 'u':
                    {
                        str += json.slice(start, i);
                        const code = json.substr(i + 2, 4);
                        switch (code) {
                            case '0000':
                                str += '\\0';
                                break;
                            case '0007':
                                str += '\\a';
                                break;
                            case '000b':
                                str += '\\v';
                                break;
                            case '001b':
                                str += '\\e';
                                break;
                            case '0085':
                                str += '\\N';
                                break;
                            case '00a0':
                                str += '\\_';
                                break;
                            case '2028':
                                str += '\\L';
                                break;
                            case '2029':
                                str += '\\P';
                                break;
                            default:
                                if (code.substr(0, 2) === '00')
                                    str += '\\x' + code.substr(2);
                                else
                                    str += json.substr(i, 6);
                        }
                        i += 5;
                        start = i + 1;
                    }
                    break;
                case 'n':
                    if (implicitKey ||
                        json[i + 2] === '"' ||
                        json.length < minMultiLineLength) {
                        i += 1;
                    }
                    else {
                        // folding will eat first newline
                        str += json.slice(start, i) + '\n\n';
                        while (json[i + 2] === '\\' &&
                            json[i + 3] === 'n' &&
                            json[i + 4] !== '"') {
                            str += '\n';
                            i += 2;
                        }
                        str += indent;
                        // space after newline needs to be escaped to not be folded
                        if (json[i + 2] === ' ')
                            str += '\\';
                        i += 1;
                        start = i + 1;
                    }
                    break;
                default:
                    i += 1;
            }
    }
    str = start ? str + json.slice(start) : json;
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
}
function singleQuotedString(value, ctx) {
    if (ctx.options.singleQuote === false ||
        (ctx.implicitKey && value.includes('\n')) ||
        /[ \t]\n|\n[ \t]/.test(value) // single quoted string can't have leading or trailing whitespace around newline
    )
        return doubleQuotedString(value, ctx);
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`) + "'";
    return ctx.implicitKey
        ? res
        : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function quotedString(value, ctx) {
    const { singleQuote } = ctx.options;
    let qs;
    if (singleQuote === false)
        qs = doubleQuotedString;
    else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
            qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
            qs = doubleQuotedString;
        else
            qs = singleQuote ? singleQuotedString : doubleQuotedString;
    }
    return qs(value, ctx);
}
// The negative lookbehind avoids a polynomial search,
// but isn't supported yet on Safari: https://caniuse.com/js-regexp-lookbehind
let blockEndNewlines;
try {
    blockEndNewlines = new RegExp('(^|(?<!\n))\n+(?!\n|$)', 'g');
}
catch {
    blockEndNewlines = /\n+(?!\n|$)/g;
}
function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
    const { blockQuote, commentString, lineWidth } = ctx.options;
    // 1. Block can't end in whitespace unless the last line is non-empty.
    // 2. Strings consisting of only whitespace are best rendered explicitly.
    if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
    }
    const indent = ctx.indent ||
        (ctx.forceBlockIndent || containsDocumentMarker(value) ? '  ' : '');
    const literal = blockQuote === 'literal'
        ? true
        : blockQuote === 'folded' || type === Scalar.Scalar.BLOCK_FOLDED
            ? false
            : type === Scalar.Scalar.BLOCK_LITERAL
                ? true
                : !lineLengthOverLimit(value, lineWidth, indent.length);
    if (!value)
        return literal ? '|\n' : '>\n';
    // determine chomping from whitespace at value end
    let chomp;
    let endStart;
    for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== '\n' && ch !== '\t' && ch !== ' ')
            break;
    }
    let end = value.substring(endStart);
    const endNlPos = end.indexOf('\n');
    if (endNlPos === -1) {
        chomp = '-'; // strip
    }
    else if (value === end || endNlPos !== end.length - 1) {
        chomp = '+'; // keep
        if (onChompKeep)
            onChompKeep();
    }
    else {
        chomp = ''; // clip
    }
    if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === '\n')
            end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
    }
    // determine indent indicator from whitespace at value start
    let startWithSpace = false;
    let startEnd;
    let startNlPos = -1;
    for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === ' ')
            startWithSpace = true;
        else if (ch === '\n')
            startNlPos = startEnd;
        else
            break;
    }
    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
    if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
    }
    const indentSize = indent ? '2' : '1'; // root is at -1
    // Leading | or > is added later
    let header = (startWithSpace ? indentSize : '') + chomp;
    if (comment) {
        header += ' ' + commentString(comment.replace(/ ?[\r\n]+/g, ' '));
        if (onComment)
            onComment();
    }
    if (!literal) {
        const foldedValue = value
            .replace(/\n+/g, '\n$&')
            .replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, '$1$2') // more-indented lines aren't folded
            //                ^ more-ind. ^ empty     ^ capture next empty lines only at end of indent
            .replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== 'folded' && type !== Scalar.Scalar.BLOCK_FOLDED) {
            foldOptions.onOverflow = () => {
                literalFallback = true;
            };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
            return `>${header}\n${indent}${body}`;
    }
    value = value.replace(/\n+/g, `$&${indent}`);
    return `|${header}\n${indent}${start}${value}${end}`;
}
function plainString(item, ctx, onComment, onChompKeep) {
    const { type, value } = item;
    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
    if ((implicitKey && value.includes('\n')) ||
        (inFlow && /[[\]{},]/.test(value))) {
        return quotedString(value, ctx);
    }
    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        // not allowed:
        // - '-' or '?'
        // - start with an indicator character (except [?:-]) or /[?-] /
        // - '\n ', ': ' or ' \n' anywhere
        // - '#' not preceded by a non-space char
        // - end with ' ' or ':'
        return implicitKey || inFlow || !value.includes('\n')
            ? quotedString(value, ctx)
            : blockString(item, ctx, onComment, onChompKeep);
    }
    if (!implicitKey &&
        !inFlow &&
        type !== Scalar.Scalar.PLAIN &&
        value.includes('\n')) {
        // Where allowed & type not set explicitly, prefer block style for multiline strings
        return blockString(item, ctx, onComment, onChompKeep);
    }
    if (containsDocumentMarker(value)) {
        if (indent === '') {
            ctx.forceBlockIndent = true;
            return blockString(item, ctx, onComment, onChompKeep);
        }
        else if (implicitKey && indent === indentStep) {
            return quotedString(value, ctx);
        }
    }
    const str = value.replace(/\n+/g, `$&\n${indent}`);
    // Verify that output will be parsed as a string, as e.g. plain numbers and
    // booleans get parsed with those types in v1.2 (e.g. '42', 'true' & '0.9e-3'),
    // and others in v1.1.
    if (actualString) {
        const test = (tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
            return quotedString(value, ctx);
    }
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function stringifyString(item, ctx, onComment, onChompKeep) {
    const { implicitKey, inFlow } = ctx;
    const ss = typeof item.value === 'string'
        ? item
        : Object.assign({}, item, { value: String(item.value) });
    let { type } = item;
    if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        // force double quotes on control characters & unpaired surrogates
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
            type = Scalar.Scalar.QUOTE_DOUBLE;
    }
    const _stringify = (_type) => {
        switch (_type) {
            case Scalar.Scalar.BLOCK_FOLDED:
            case Scalar.Scalar.BLOCK_LITERAL:
                return implicitKey || inFlow
                    ? quotedString(ss.value, ctx) // blocks are not valid inside flow containers
                    : blockString(ss, ctx, onComment, onChompKeep);
            case Scalar.Scalar.QUOTE_DOUBLE:
                return doubleQuotedString(ss.value, ctx);
            case Scalar.Scalar.QUOTE_SINGLE:
                return singleQuotedString(ss.value, ctx);
            case Scalar.Scalar.PLAIN:
                return plainString(ss, ctx, onComment, onChompKeep);
            default:
                return null;
        }
    };
    let res = _stringify(type);
    if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = (implicitKey && defaultKeyType) || defaultStringType;
        res = _stringify(t);
        if (res === null)
            throw new Error(`Unsupported default string type ${t}`);
    }
    return res;
}

exports.stringifyString = stringifyString;


/***/ }),

/***/ 204:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove node');
/**
 * Apply a visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
function visit(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        visit_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current node */
visit.SKIP = SKIP;
/** Remove the current node */
visit.REMOVE = REMOVE;
function visit_(key, node, visitor, path) {
    const ctrl = callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = visit_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = visit_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = visit_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
/**
 * Apply an async visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `Promise`: Must resolve to one of the following values
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
async function visitAsync(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visitAsync.BREAK = BREAK;
/** Do not visit the children of the current node */
visitAsync.SKIP = SKIP;
/** Remove the current node */
visitAsync.REMOVE = REMOVE;
async function visitAsync_(key, node, visitor, path) {
    const ctrl = await callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = await visitAsync_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = await visitAsync_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = await visitAsync_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
function initVisitor(visitor) {
    if (typeof visitor === 'object' &&
        (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
            Alias: visitor.Node,
            Map: visitor.Node,
            Scalar: visitor.Node,
            Seq: visitor.Node
        }, visitor.Value && {
            Map: visitor.Value,
            Scalar: visitor.Value,
            Seq: visitor.Value
        }, visitor.Collection && {
            Map: visitor.Collection,
            Seq: visitor.Collection
        }, visitor);
    }
    return visitor;
}
function callVisitor(key, node, visitor, path) {
    if (typeof visitor === 'function')
        return visitor(key, node, path);
    if (identity.isMap(node))
        return visitor.Map?.(key, node, path);
    if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path);
    if (identity.isPair(node))
        return visitor.Pair?.(key, node, path);
    if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path);
    if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path);
    return undefined;
}
function replaceNode(key, path, node) {
    const parent = path[path.length - 1];
    if (identity.isCollection(parent)) {
        parent.items[key] = node;
    }
    else if (identity.isPair(parent)) {
        if (key === 'key')
            parent.key = node;
        else
            parent.value = node;
    }
    else if (identity.isDocument(parent)) {
        parent.contents = node;
    }
    else {
        const pt = identity.isAlias(parent) ? 'alias' : 'scalar';
        throw new Error(`Cannot replace node with ${pt} parent`);
    }
}

exports.visit = visit;
exports.visitAsync = visitAsync;


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_namespaceObject);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __nccwpck_require__(8815);
;// CONCATENATED MODULE: ./node_modules/zod/v4/core/registries.js
var _a;
const $output = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodOutput")));
const $input = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodInput")));
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(_a = globalThis).__zod_globalRegistry ?? (_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/util.js

// functions
function assertEqual(val) {
    return val;
}
function assertNotEqual(val) {
    return val;
}
function toZod() {
    return (schema) => schema;
}
function assertIs(_arg) { }
function assertNever(_x) {
    throw new Error("Unexpected value in exhaustive check");
}
function assert(_) { }
function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
const EVALUATING = /* @__PURE__*/ (/* unused pure expression or super */ null && (Symbol("evaluating")));
function defineLazy(object, key, getter) {
    let value = undefined;
    Object.defineProperty(object, key, {
        get() {
            if (value === EVALUATING) {
                // Circular reference detected, return undefined to break the cycle
                return undefined;
            }
            if (value === undefined) {
                value = EVALUATING;
                value = getter();
            }
            return value;
        },
        set(v) {
            Object.defineProperty(object, key, {
                value: v,
                // configurable: true,
            });
            // object[key] = v;
        },
        configurable: true,
    });
}
function objectClone(obj) {
    return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
}
function util_assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            util_assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        util_assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function cloneDef(schema) {
    return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
    if (!path)
        return obj;
    return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
    const keys = Object.keys(promisesObj);
    const promises = keys.map((key) => promisesObj[key]);
    return Promise.all(promises).then((results) => {
        const resolvedObj = {};
        for (let i = 0; i < keys.length; i++) {
            resolvedObj[keys[i]] = results[i];
        }
        return resolvedObj;
    });
}
function randomString(length = 10) {
    const chars = "abcdefghijklmnopqrstuvwxyz";
    let str = "";
    for (let i = 0; i < length; i++) {
        str += chars[Math.floor(Math.random() * chars.length)];
    }
    return str;
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function util_isObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const util_allowsEval = /* @__PURE__*/ cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
});
function isPlainObject(o) {
    if (util_isObject(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (util_isObject(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
function numKeys(data) {
    let keyCount = 0;
    for (const key in data) {
        if (Object.prototype.hasOwnProperty.call(data, key)) {
            keyCount++;
        }
    }
    return keyCount;
}
const getParsedType = (data) => {
    const t = typeof data;
    switch (t) {
        case "undefined":
            return "undefined";
        case "string":
            return "string";
        case "number":
            return Number.isNaN(data) ? "nan" : "number";
        case "boolean":
            return "boolean";
        case "function":
            return "function";
        case "bigint":
            return "bigint";
        case "symbol":
            return "symbol";
        case "object":
            if (Array.isArray(data)) {
                return "array";
            }
            if (data === null) {
                return "null";
            }
            if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
                return "promise";
            }
            if (typeof Map !== "undefined" && data instanceof Map) {
                return "map";
            }
            if (typeof Set !== "undefined" && data instanceof Set) {
                return "set";
            }
            if (typeof Date !== "undefined" && data instanceof Date) {
                return "date";
            }
            // @ts-ignore
            if (typeof File !== "undefined" && data instanceof File) {
                return "file";
            }
            return "object";
        default:
            throw new Error(`Unknown data type: ${t}`);
    }
};
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
const primitiveTypes = /* @__PURE__*/ new Set([
    "string",
    "number",
    "bigint",
    "boolean",
    "symbol",
    "undefined",
]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function createTransparentProxy(getter) {
    let target;
    return new Proxy({}, {
        get(_, prop, receiver) {
            target ?? (target = getter());
            return Reflect.get(target, prop, receiver);
        },
        set(_, prop, value, receiver) {
            target ?? (target = getter());
            return Reflect.set(target, prop, value, receiver);
        },
        has(_, prop) {
            target ?? (target = getter());
            return Reflect.has(target, prop);
        },
        deleteProperty(_, prop) {
            target ?? (target = getter());
            return Reflect.deleteProperty(target, prop);
        },
        ownKeys(_) {
            target ?? (target = getter());
            return Reflect.ownKeys(target);
        },
        getOwnPropertyDescriptor(_, prop) {
            target ?? (target = getter());
            return Reflect.getOwnPropertyDescriptor(target, prop);
        },
        defineProperty(_, prop, descriptor) {
            target ?? (target = getter());
            return Reflect.defineProperty(target, prop, descriptor);
        },
    });
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}
// Wrapped in a `@__PURE__` IIFE: esbuild never tree-shakes a top-level initializer that contains a member access on `Number`, so the bare object literal survived into every bundle.
const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-3.4028234663852886e38, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
function getSizableOrigin(input) {
    if (input instanceof Set)
        return "set";
    if (input instanceof Map)
        return "map";
    // @ts-ignore
    if (input instanceof File)
        return "file";
    return "unknown";
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function util_issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
function cleanEnum(obj) {
    return Object.entries(obj)
        .filter(([k, _]) => {
        // return true if NaN, meaning it's not a number, thus a string key
        return Number.isNaN(Number.parseInt(k, 10));
    })
        .map((el) => el[1]);
}
// Codec utility functions
function base64ToUint8Array(base64) {
    const binaryString = atob(base64);
    const bytes = new Uint8Array(binaryString.length);
    for (let i = 0; i < binaryString.length; i++) {
        bytes[i] = binaryString.charCodeAt(i);
    }
    return bytes;
}
function uint8ArrayToBase64(bytes) {
    let binaryString = "";
    for (let i = 0; i < bytes.length; i++) {
        binaryString += String.fromCharCode(bytes[i]);
    }
    return btoa(binaryString);
}
function base64urlToUint8Array(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const padding = "=".repeat((4 - (base64.length % 4)) % 4);
    return base64ToUint8Array(base64 + padding);
}
function uint8ArrayToBase64url(bytes) {
    return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
    const cleanHex = hex.replace(/^0x/, "");
    if (cleanHex.length % 2 !== 0) {
        throw new Error("Invalid hex string length");
    }
    const bytes = new Uint8Array(cleanHex.length / 2);
    for (let i = 0; i < cleanHex.length; i += 2) {
        bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
    }
    return bytes;
}
function uint8ArrayToHex(bytes) {
    return Array.from(bytes)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
}
// instanceof
class Class {
    constructor(..._args) { }
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/core.js
var core_a;

/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
//////////////////////////////   UTILITIES   ///////////////////////////////////////
const $brand = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("zod_brand")));
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(core_a = globalThis).__zod_globalConfig ?? (core_a.__zod_globalConfig = {});
const globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(globalConfig, newConfig);
    return globalConfig;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/memoizer.js

class $ZodCyclicError extends Error {
    constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
    }
}
/** Keyed off the context object every schema in one parse call already shares. */
const STATE = "~memo";
const NO_ISSUES = [];
// a value a cycle can close through
function isRef(value) {
    return value !== null && typeof value === "object";
}
// Receivers prefix paths in place, so the cache and every hand-out need their own copies.
function cloneIssues(issues) {
    return issues.map((iss) => (iss.path ? { ...iss, path: iss.path.slice() } : { ...iss }));
}
const recursive = /*@__PURE__*/ new WeakMap();
/** What the walk established, in order of certainty: ordered so the strongest answer among children wins. */
const NONE = 0;
const ASSUMED = 1;
const PROVEN = 2;
/** Whether this schema's subtree contains a cycle, so one parse can re-enter it. */
function isRecursive(inst, stack, resolve) {
    const cached = recursive.get(inst);
    if (cached !== undefined)
        return cached ? PROVEN : NONE;
    // Relative to the walk in progress, so not cached.
    if (stack.has(inst))
        return PROVEN;
    stack.add(inst);
    let result = NONE;
    const check = (child) => {
        if (result !== PROVEN && child?._zod) {
            const answer = isRecursive(child, stack, resolve);
            if (answer > result)
                result = answer;
        }
    };
    // `Reflect.ownKeys` rather than `Object.keys`, so a cycle through a declared symbol key is still seen
    const shape = (sh, spread) => {
        let answer = NONE;
        for (const key of Reflect.ownKeys(sh)) {
            const desc = Object.getOwnPropertyDescriptor(sh, key);
            // an object resolves its shape by spread, so a key it does not enumerate is never parsed; `z.properties` reads every own key and so keeps them all
            if (spread && !desc.enumerable)
                continue;
            // resolving runs user code, and a factory mints a fresh subtree per read, so an edge the walk can't follow counts as a cycle
            const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack, resolve) : NONE;
            if (child > answer)
                answer = child;
        }
        return answer;
    };
    const merge = (answer) => {
        if (answer > result)
            result = answer;
    };
    const def = inst._zod.def;
    const kind = def.type;
    switch (kind) {
        case "object": {
            const raw = rawShape(def);
            // a def with no raw shape answers `shape` from an accessor of its own, and running that can mint a whole fresh subtree
            merge(raw ? shape(raw, true) : ASSUMED);
            check(def.catchall);
            break;
        }
        case "array":
            check(def.element);
            break;
        case "tuple":
            for (const el of def.items)
                check(el);
            check(def.rest);
            break;
        case "record":
        case "map":
            check(def.keyType);
            check(def.valueType);
            break;
        case "set":
            check(def.valueType);
            break;
        case "union":
            for (const el of def.options)
                check(el);
            break;
        case "intersection":
            check(def.left);
            check(def.right);
            break;
        case "optional":
        case "nullable":
        case "default":
        case "prefault":
        case "catch":
        case "readonly":
        case "nonoptional":
        case "promise":
        case "success":
            check(def.innerType);
            break;
        case "pipe":
            check(def.in);
            check(def.out);
            break;
        case "function":
            check(def.input);
            check(def.output);
            break;
        // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
        case "lazy": {
            const inner = def._cachedInner ?? (resolve ? inst._zod.innerType : undefined);
            // walked with resolution off: one hop sees past the deferral, and a lazy that yields only another unresolved lazy is generative, so it stops there
            merge(inner ? isRecursive(inner, stack, false) : ASSUMED);
            break;
        }
        // a leaf by choice: `parts` are regex fragments, not data positions
        case "template_literal":
        // leaves
        case "string":
        case "number":
        case "int":
        case "boolean":
        case "bigint":
        case "symbol":
        case "undefined":
        case "null":
        case "void":
        case "never":
        case "any":
        case "unknown":
        case "date":
        case "nan":
        case "enum":
        case "literal":
        case "file":
        case "transform":
        case "custom":
            break;
        default: {
            // a new built-in kind becomes a compile error here
            kind;
            // a user-defined kind can still hold children, and only its author knows where, so fall back to scanning the def — skipping accessors, since reading one can run user code
            for (const key in def) {
                const desc = Object.getOwnPropertyDescriptor(def, key);
                if (!desc || desc.get)
                    continue;
                const value = desc.value;
                if (!value || typeof value !== "object")
                    continue;
                if (value._zod)
                    check(value);
                else if (Array.isArray(value))
                    for (const el of value)
                        check(el);
            }
        }
    }
    stack.delete(inst);
    return settle(inst, result);
}
/** An assumed answer must not outlive the resolution that settles it, so only a certain one is cached. */
function settle(inst, answer) {
    if (answer !== ASSUMED)
        recursive.set(inst, answer === PROVEN);
    return answer;
}
/**
 * Whether one parse can re-enter this schema, i.e. its subtree contains a cycle.
 * Exported for `z.compile`, which refuses to compile such a schema: cycle
 * breaking is driven from here off state keyed on the parse context, and a
 * generated fast path has no context to key on.
 */
function isRecursiveSchema(inst) {
    // z.compile never parses, so nothing would ever resolve a lazy for it; it runs once and already treats a throw here as recursive
    return isRecursive(inst, new Set(), true) !== NONE;
}
function bucketFor(state, inst) {
    let bucket = state.buckets.get(inst);
    if (!bucket) {
        bucket = new WeakMap();
        state.buckets.set(inst, bucket);
    }
    return bucket;
}
// Set immediately before delegating to core and cleared immediately after, so `alloc` registers only for a visit this module is driving.
let handoff;
// Allocated but unfinished entries. `alloc` and the matching pop both happen in the synchronous part of a parse, so they nest even when children are async, and one stack serves every schema.
const memoizer_open = [];
const memo = {
    alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
            return empty;
        handoff = undefined;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        memoizer_open.push(entry);
        return empty;
    },
    guard(inst) {
        var _a;
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                // The value is a placeholder a back-edge is still waiting on, so the cycle closes through this transform. Its output can't exist in time to bind.
                if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
                    throw new $ZodCyclicError();
                return base(payload, ctx);
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
    attach(inst) {
        var _a;
        let isRecursiveInst;
        let rechecked = false;
        // a recursive schema is re-entered many times per parse and its bucket never changes
        let lastCtx;
        let lastBucket;
        // Wraps `parse` in a deferred so it sees the container's final parse. Core's own deferred copies `parse` into `run` when there are no checks, and it ran first, so `run` is patched to match; with checks, `run` reads `parse` dynamically.
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                if (isRecursiveInst === undefined) {
                    const walked = isRecursive(inst, new Set(), false);
                    if (walked === NONE) {
                        // Nothing here can ever fire, so take it back out.
                        inst._zod.parse = base;
                        if (inst._zod.run === wrapped)
                            inst._zod.run = base;
                        return base(payload, ctx);
                    }
                    // this parse resolves the deferred edges on its own path, so ask once more before latching
                    if (walked === PROVEN || rechecked)
                        isRecursiveInst = true;
                    else
                        rechecked = true;
                }
                const input = payload.value;
                if (!isRef(input))
                    return base(payload, ctx);
                let state = ctx[STATE];
                if (!state) {
                    state = { buckets: new WeakMap(), backEdges: undefined };
                    ctx[STATE] = state;
                }
                let bucket;
                if (lastCtx === ctx) {
                    bucket = lastBucket;
                }
                else {
                    bucket = bucketFor(state, inst);
                    lastCtx = ctx;
                    lastBucket = bucket;
                }
                const hit = bucket.get(input);
                if (hit) {
                    payload.value = hit.value;
                    if (hit.issues) {
                        if (hit.issues.length)
                            payload.issues.push(...cloneIssues(hit.issues));
                    }
                    else {
                        // Still being parsed: its own checks cover it, so skip them here.
                        payload.memo = true;
                        state.backEdges ?? (state.backEdges = new WeakSet());
                        state.backEdges.add(hit.value);
                    }
                    return payload;
                }
                handoff = bucket;
                const depth = memoizer_open.length;
                const result = base(payload, ctx);
                handoff = undefined;
                // A container that rejected its input outright allocated nothing.
                const entry = memoizer_open.length > depth ? memoizer_open.pop() : undefined;
                // Both paths written out so the sync one allocates no closure. It runs once per node, and capturing here cost more than everything else combined.
                if (result instanceof Promise) {
                    return result.then((r) => {
                        if (entry)
                            entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                        return r;
                    });
                }
                if (entry)
                    entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
                return result;
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
};
/** The memoizer that gives containers cycle support. `zod` installs it by default; `zod/mini` opts in with `config({ memoizer: memoizer() })`. */
function memoizer() {
    return memo;
}
/** Whether this value is a node a back-edge resolved to before it finished. */
function isBackEdge(ctx, value) {
    const backEdges = ctx[STATE]?.backEdges;
    return backEdges !== undefined && isRef(value) && backEdges.has(value);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/regexes.js

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** Implements ISO 8601-2 extensions like explicit +- prefixes, mixing weeks with other units, and fractional/negative components. */
const extendedDuration = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
const uuid4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(4)));
const uuid6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(6)));
const uuid7 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(7)));
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Equivalent to the HTML5 input[type=email] validation implemented by browsers. Source: https://developer.mozilla.org/en-US/docs/Web/HTML/Element/input/email */
const html5Email = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** The classic emailregex.com regex for RFC 5322-compliant emails */
const rfc5322Email = /^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;
/** A loose regex that allows Unicode characters, enforces length limits, and that's about it. */
const unicodeEmail = /^[^\s@"]{1,64}@[^\s@]{1,255}$/u;
const idnEmail = (/* unused pure expression or super */ null && (unicodeEmail));
const browserEmail = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
    return new RegExp(_emoji, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const mac = (delimiter) => {
    const escapedDelim = util.escapeRegex(delimiter ?? ":");
    return new RegExp(`^(?:[0-9A-F]{2}${escapedDelim}){5}[0-9A-F]{2}$|^(?:[0-9a-f]{2}${escapedDelim}){5}[0-9a-f]{2}$`);
};
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
// based on https://stackoverflow.com/questions/106179/regular-expression-to-match-dns-hostname-or-ip-address
// export const hostname: RegExp = /^([a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+$/;
const hostname = /^(?=.{1,253}\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\.?$/;
const domain = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
// Credit card shape: 12–19 digits, optionally separated by single spaces or single hyphens. ISO/IEC 7812 caps the PAN at 19 digits; 12 is the shortest issued length (Maestro).
const creditCard = /^\d(?:[ -]?\d){11,18}$/;
// ISO 4217 alpha codes from the SIX list, regenerated by scripts/update-iso-4217.ts
const currencyCode = /^(?:AED|AFN|ALL|AMD|AOA|ARS|AUD|AWG|AZN|BAM|BBD|BDT|BHD|BIF|BMD|BND|BOB|BOV|BRL|BSD|BTN|BWP|BYN|BZD|CAD|CDF|CHE|CHF|CHW|CLF|CLP|CNY|COP|COU|CRC|CUP|CVE|CZK|DJF|DKK|DOP|DZD|EGP|ERN|ETB|EUR|FJD|FKP|GBP|GEL|GHS|GIP|GMD|GNF|GTQ|GYD|HKD|HNL|HTG|HUF|IDR|ILS|INR|IQD|IRR|ISK|JMD|JOD|JPY|KES|KGS|KHR|KMF|KPW|KRW|KWD|KYD|KZT|LAK|LBP|LKR|LRD|LSL|LYD|MAD|MDL|MGA|MKD|MMK|MNT|MOP|MRU|MUR|MVR|MWK|MXN|MXV|MYR|MZN|NAD|NGN|NIO|NOK|NPR|NZD|OMR|PAB|PEN|PGK|PHP|PKR|PLN|PYG|QAR|RON|RSD|RUB|RWF|SAR|SBD|SCR|SDG|SEK|SGD|SHP|SLE|SOS|SRD|SSP|STN|SVC|SYP|SZL|THB|TJS|TMT|TND|TOP|TRY|TTD|TWD|TZS|UAH|UGX|USD|USN|UYI|UYU|UYW|UZS|VED|VES|VND|VUV|WST|XAD|XAF|XAG|XAU|XBA|XBB|XBC|XBD|XCD|XCG|XDR|XOF|XPD|XPF|XPT|XSU|XTS|XUA|XXX|YER|ZAR|ZMW|ZWG)$/;
// iban electronic format: 2-letter country, check digits 02-98 (the only values `98 - remainder` can produce), 11-30 bban characters
const iban = /^[A-Z]{2}(?!00|01|99)\d{2}[A-Z0-9]{11,30}$/;
const dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
/** Anchors a pattern source. The interpolation lives here rather than at the call site because
 * esbuild will not drop a `@__PURE__` call whose own argument interpolates a variable, but it
 * will drop `anchor(dateSource)`. Keeping it inline pinned `date` into every bundle. */
function regexes_anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ regexes_anchor(dateSource);
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const string = (params) => {
    const regex = params ? `[\\s\\S]{${params?.minimum ?? 0},${params?.maximum ?? ""}}` : `[\\s\\S]*`;
    return new RegExp(`^${regex}$`);
};
const bigint = /^-?\d+n?$/;
const integer = /^-?\d+$/;
const number = /^-?\d+(?:\.\d+)?$/;
const regexes_boolean = /^(?:true|false)$/i;
const _null = /^null$/i;

const _undefined = /^undefined$/i;

// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;
// regex for hexadecimal strings (any length)
const hex = /^[0-9a-fA-F]*$/;
// Hash regexes for different algorithms and encodings
// Helper function to create base64 regex with exact length and padding
function fixedBase64(bodyLength, padding) {
    return new RegExp(`^[A-Za-z0-9+/]{${bodyLength}}${padding}$`);
}
// Helper function to create base64url regex with exact length (no padding)
function fixedBase64url(length) {
    return new RegExp(`^[A-Za-z0-9_-]{${length}}$`);
}
// MD5 (16 bytes): base64 = 24 chars total (22 + "==")
const md5_hex = /^[0-9a-fA-F]{32}$/;
const md5_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(22, "==")));
const md5_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(22)));
// SHA1 (20 bytes): base64 = 28 chars total (27 + "=")
const sha1_hex = /^[0-9a-fA-F]{40}$/;
const sha1_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(27, "=")));
const sha1_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(27)));
// SHA256 (32 bytes): base64 = 44 chars total (43 + "=")
const sha256_hex = /^[0-9a-fA-F]{64}$/;
const sha256_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(43, "=")));
const sha256_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(43)));
// SHA384 (48 bytes): base64 = 64 chars total (no padding)
const sha384_hex = /^[0-9a-fA-F]{96}$/;
const sha384_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(64, "")));
const sha384_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(64)));
// SHA512 (64 bytes): base64 = 88 chars total (86 + "==")
const sha512_hex = /^[0-9a-fA-F]{128}$/;
const sha512_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(86, "==")));
const sha512_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(86)));

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/checks.js
// import { $ZodType } from "./schemas.js";



const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for size-based checks: run only on non-nullish values with a `size`. */
const _whenHasSize = (payload) => {
    const val = payload.value;
    return !util.nullish(val) && val.size !== undefined;
};
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ $constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ $constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckBigIntFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    const [minimum, maximum] = util.BIGINT_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (input < minimum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_small",
                minimum: minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodCheckMaxSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMaxSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size <= def.maximum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMinSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMinSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size >= def.minimum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckSizeEquals = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckSizeEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size === def.size)
            return;
        const tooBig = size > def.size;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            ...(tooBig ? { code: "too_big", maximum: def.size } : { code: "too_small", minimum: def.size }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMaxLength = /*@__PURE__*/ $constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ $constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStringFormat = /*@__PURE__*/ $constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
});
const $ZodCheckRegex = /*@__PURE__*/ $constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLowerCase = /*@__PURE__*/ $constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = lowercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckUpperCase = /*@__PURE__*/ $constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = uppercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckIncludes = /*@__PURE__*/ $constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStartsWith = /*@__PURE__*/ $constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckEndsWith = /*@__PURE__*/ $constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
///////////////////////////////////
/////    $ZodCheckProperty    /////
///////////////////////////////////
function handleCheckPropertyResult(result, payload, property) {
    if (result.issues.length) {
        payload.issues.push(...prefixIssues(property, result.issues));
    }
}
const $ZodCheckProperty = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckProperty", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        const result = def.schema._zod.run({
            value: payload.value[def.property],
            issues: [],
        }, {});
        if (result instanceof Promise) {
            return result.then((result) => handleCheckPropertyResult(result, payload, def.property));
        }
        handleCheckPropertyResult(result, payload, def.property);
        return;
    };
})));
const $ZodCheckProperties = /*@__PURE__*/ $constructor("$ZodCheckProperties", (inst, def) => {
    $ZodCheck.init(inst, def);
    hide(inst, Symbol.iterator, function* () {
        yield inst;
    });
    // key and schema snapshotted together: reading one live and the other cached lets a later mutation of the caller's shape object pair a stale key with a missing schema
    let entries;
    inst._zod.check = (payload) => {
        // the base schema already typed the value, so only a nullish one is rejected here: the properties read on a primitive too, matching z.property() on a string's length
        if (payload.value == null) {
            payload.issues.push({ expected: "object", code: "invalid_type", input: payload.value, inst });
            return undefined;
        }
        entries ?? (entries = Reflect.ownKeys(def.shape).map((key) => [key, def.shape[key]]));
        const input = payload.value;
        let proms;
        for (const [key, schema] of entries) {
            const result = schema._zod.run({ value: input[key], issues: [] }, {});
            if (result instanceof Promise) {
                proms ?? (proms = []);
                proms.push(result.then((result) => handleCheckPropertyResult(result, payload, key)));
            }
            else {
                handleCheckPropertyResult(result, payload, key);
            }
        }
        if (proms)
            return Promise.all(proms).then(() => undefined);
        return undefined;
    };
});
const $ZodCheckMimeType = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMimeType", (inst, def) => {
    $ZodCheck.init(inst, def);
    const mimeSet = new Set(def.mime);
    inst._zod.check = (payload) => {
        if (mimeSet.has(payload.value.type))
            return;
        payload.issues.push({
            code: "invalid_value",
            values: def.mime,
            input: payload.value.type,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckOverwrite = /*@__PURE__*/ $constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
});

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/doc.js
class Doc {
    constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
    }
    // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
    indented(fn) {
        this.indent += 1;
        try {
            fn(this);
        }
        finally {
            this.indent -= 1;
        }
    }
    write(arg) {
        if (typeof arg === "function") {
            arg(this, { execution: "sync" });
            arg(this, { execution: "async" });
            return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
            this.content.push(line);
        }
    }
    compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\n${content.join("\n")}\n};`);
        return factory(...Object.values(this.closed));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/versions.js
const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/schemas.js







const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}

const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ $constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    $ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
});
const $ZodGUID = /*@__PURE__*/ $constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = guid);
    $ZodStringFormat.init(inst, def);
});
const $ZodUUID = /*@__PURE__*/ $constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
    }
    else
        def.pattern ?? (def.pattern = uuid());
    $ZodStringFormat.init(inst, def);
});
const $ZodEmail = /*@__PURE__*/ $constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = email);
    $ZodStringFormat.init(inst, def);
});
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ $constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodEmoji = /*@__PURE__*/ $constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = emoji());
    $ZodStringFormat.init(inst, def);
});
const $ZodNanoID = /*@__PURE__*/ $constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? nanoid : nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ $constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = cuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodCUID2 = /*@__PURE__*/ $constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = cuid2);
    $ZodStringFormat.init(inst, def);
});
const $ZodULID = /*@__PURE__*/ $constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = ulid);
    $ZodStringFormat.init(inst, def);
});
const $ZodXID = /*@__PURE__*/ $constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = xid);
    $ZodStringFormat.init(inst, def);
});
const $ZodKSUID = /*@__PURE__*/ $constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = ksuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodISODateTime = /*@__PURE__*/ $constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = datetime(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODate = /*@__PURE__*/ $constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = date);
    $ZodStringFormat.init(inst, def);
});
const $ZodISOTime = /*@__PURE__*/ $constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = time(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODuration = /*@__PURE__*/ $constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = duration);
    $ZodStringFormat.init(inst, def);
});
const $ZodIPv4 = /*@__PURE__*/ $constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = ipv4);
    $ZodStringFormat.init(inst, def);
});
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ $constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMAC", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.mac(def.delimiter));
    $ZodStringFormat.init(inst, def);
})));
const $ZodCIDRv4 = /*@__PURE__*/ $constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv4);
    $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ $constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ $constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ $constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodE164 = /*@__PURE__*/ $constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = e164);
    $ZodStringFormat.init(inst, def);
});
//////////////////////////////   ZodCreditCard   //////////////////////////////
const CC_SANITIZE = /[- ]/g;
/** Luhn checksum on a digit-only string. Adapted from valibot (MIT). */
function isLuhnAlgo(digits) {
    let length = digits.length;
    let bit = 1;
    let sum = 0;
    while (length) {
        const value = digits.charCodeAt(--length) - 48;
        bit ^= 1;
        sum += bit ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][value] : value;
    }
    return sum % 10 === 0;
}
function isValidCreditCard(input) {
    if (!regexes.creditCard.test(input))
        return false;
    return isLuhnAlgo(input.replace(CC_SANITIZE, ""));
}
const $ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCreditCard", (inst, def) => {
    // Shape only — the Luhn check below is not expressible as a pattern, so consumers of `pattern` (JSON Schema, template literals) get the length and separator rules alone.
    def.pattern ?? (def.pattern = regexes.creditCard);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidCreditCard(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "credit_card",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodIBAN   //////////////////////////////
// iso 7064 mod 97-10 checksum without BigInt
function isIso7064Mod97(iban) {
    let remainder = 0;
    const len = iban.length;
    for (let i = 4; i < len; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    for (let i = 0; i < 4; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    return remainder === 1;
}
function isValidIBAN(input) {
    if (!regexes.iban.test(input))
        return false;
    return isIso7064Mod97(input);
}
const $ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIBAN", (inst, def) => {
    // shape only — checksum is not expressible as a pattern
    def.pattern ?? (def.pattern = regexes.iban);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidIBAN(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "iban",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ $constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCustomStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (def.fn(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: def.format,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ $constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes_boolean;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
});
const $ZodBigInt = /*@__PURE__*/ $constructor("$ZodBigInt", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = bigint;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = BigInt(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "bigint")
            return payload;
        payload.issues.push({
            expected: "bigint",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBigIntFormat", (inst, def) => {
    checks.$ZodCheckBigIntFormat.init(inst, def);
    $ZodBigInt.init(inst, def); // no format checks
})));
const $ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSymbol", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "symbol")
            return payload;
        payload.issues.push({
            expected: "symbol",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodUndefined", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.undefined;
    inst._zod.values = new Set([undefined]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "undefined",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNull", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.null;
    inst._zod.values = new Set([null]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (input === null)
            return payload;
        payload.issues.push({
            expected: "null",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodAny", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
})));
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodVoid", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "void",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodDate = /*@__PURE__*/ $constructor("$ZodDate", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce) {
            try {
                payload.value = new Date(payload.value);
            }
            catch (_err) { }
        }
        const input = payload.value;
        const isDate = input instanceof Date;
        const isValidDate = isDate && !Number.isNaN(input.getTime());
        if (isValidDate)
            return payload;
        payload.issues.push({
            expected: "date",
            code: "invalid_type",
            input,
            ...(isDate ? { received: "Invalid Date" } : {}),
            inst,
        });
        return payload;
    };
});
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
const mapSize = (input) => (input instanceof Map ? input.size : -1);
const setSize = (input) => (input instanceof Set ? input.size : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    util_assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject = util_isObject;
    const catchall = def.catchall;
    let value;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ $constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = cached(() => normalizeDef(def));
    const memo = globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject = util_isObject;
    const jit = !globalConfig.jitless;
    const allowsEval = util_allowsEval;
    const fastEnabled = jit && allowsEval.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
});
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
function handleExclusiveUnionResults(results, final, inst, ctx) {
    const matches = [];
    for (let i = 0; i < results.length; i++) {
        if (results[i].issues.length === 0)
            matches.push(i);
    }
    if (matches.length === 1) {
        final.value = results[matches[0]].value;
        return final;
    }
    if (matches.length === 0) {
        // No matches - same as regular union
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: results.map((result) => result.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config()))),
        });
    }
    else {
        // Multiple matches - exclusive union failure
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: [],
            inclusive: false,
            matches,
        });
    }
    return final;
}
const $ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodXor", (inst, def) => {
    $ZodUnion.init(inst, def);
    def.inclusive = false;
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                results.push(result);
            }
        }
        if (!async)
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        });
    };
})));
/** Returns the option whose discriminator claims `value`, or throws if ambiguous. */
function getDiscriminatedOption(union, value) {
    const internals = union._zod;
    let map = internals.bag.optionsMap;
    if (!map) {
        map = discriminatorMap(internals.def);
        internals.bag.optionsMap = map;
    }
    const option = map.get(value);
    if (option === null)
        throw new Error(`Ambiguous discriminator value "${String(value)}"`);
    return option;
}
function discriminatorMap(def) {
    const map = new Map();
    for (const option of def.options) {
        const values = option._zod.propValues?.[def.discriminator];
        if (!values || values.size === 0)
            throw new Error(`Invalid discriminated union option at index "${def.options.indexOf(option)}"`);
        for (const value of values) {
            if (map.has(value)) {
                if (value !== undefined)
                    throw new Error(`Duplicate discriminator value "${String(value)}"`);
                // keep the collision marked so a later member cannot reclaim it
                map.set(value, null);
            }
            else {
                map.set(value, option);
            }
        }
    }
    return map;
}
const $ZodDiscriminatedUnion = 
/*@__PURE__*/
(/* unused pure expression or super */ null && (core.$constructor("$ZodDiscriminatedUnion", (inst, def) => {
    def.inclusive = false;
    $ZodUnion.init(inst, def);
    const _super = inst._zod.parse;
    util.defineLazyInternal(inst, "propValues", (zod) => {
        const propValues = {};
        let undefinedCount = 0;
        for (const option of zod.def.options) {
            const pv = option._zod.propValues;
            if (!pv || Object.keys(pv).length === 0)
                throw new Error(`Invalid discriminated union option at index "${zod.def.options.indexOf(option)}"`);
            if (pv[zod.def.discriminator]?.has(undefined))
                undefinedCount++;
            for (const [k, v] of Object.entries(pv)) {
                if (!Object.prototype.hasOwnProperty.call(propValues, k)) {
                    util.assignProp(propValues, k, new Set());
                }
                for (const val of v) {
                    propValues[k].add(val);
                }
            }
        }
        if (!zod.def.unionFallback && undefinedCount > 1)
            propValues[zod.def.discriminator]?.delete(undefined);
        return propValues;
    });
    // Checked now rather than in the lookup map below, so an option that lacks the discriminator fails at the `discriminatedUnion` call instead of on the first object parsed. Options whose shape cannot be enumerated without resolving it — pipes and lazies — are left to the map.
    def.options.forEach((option, i) => {
        const propShape = util.rawShape(option._zod.def);
        if (propShape && !Object.prototype.hasOwnProperty.call(propShape, def.discriminator)) {
            throw new Error(`Invalid discriminated union option at index "${i}"`);
        }
    });
    const disc = util.cached(() => discriminatorMap(def));
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util.isObject(input)) {
            payload.issues.push({
                code: "invalid_type",
                expected: "object",
                input,
                inst,
            });
            return payload;
        }
        const value = input?.[def.discriminator];
        const opt = disc.value.get(value);
        // forward metadata cannot choose an encoder for an absent tag
        if (opt && (value !== undefined || ctx.direction !== "backward")) {
            return opt._zod.run(payload, ctx);
        }
        // Fall back to union matching when the fast discriminator path fails:
        // - explicitly enabled via unionFallback, or
        // - during backward direction (encode), since codec-based discriminators have different values in forward vs backward directions
        if (def.unionFallback || ctx.direction === "backward") {
            return _super(payload, ctx);
        }
        // no matching discriminator
        payload.issues.push({
            code: "invalid_union",
            errors: [],
            note: "No matching discriminator",
            discriminator: def.discriminator,
            options: Array.from(disc.value.keys()).filter((value) => disc.value.get(value) !== null),
            input,
            path: [def.discriminator],
            inst,
        });
        return payload;
    };
})));
const $ZodIntersection = /*@__PURE__*/ $constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
});
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodTuple = /*@__PURE__*/ $constructor("$ZodTuple", (inst, def) => {
    $ZodType.init(inst, def);
    const items = def.items;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                input,
                inst,
                expected: "tuple",
                code: "invalid_type",
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, [], ctx) : [];
        const proms = [];
        const optinStart = getTupleOptStart(items, "optin");
        const optoutStart = getTupleOptStart(items, "optout");
        if (!def.rest) {
            if (input.length < optinStart) {
                payload.issues.push({
                    code: "too_small",
                    minimum: optinStart,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
                return payload;
            }
            if (input.length > items.length) {
                payload.issues.push({
                    code: "too_big",
                    maximum: items.length,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
            }
        }
        // Run every item in parallel, collecting results into an indexed array. The post-processing in `handleTupleResults` walks them in order so it can decide whether an absent optional-output error can truncate the tail or must be reported to preserve required output.
        const itemResults = new Array(items.length);
        // only tracked when there is a rest loop to skip
        const abortEarly = def.rest ? ctx?.abortEarly : undefined;
        let itemAborted = false;
        for (let i = 0; i < items.length; i++) {
            const r = items[i]._zod.run({ value: input[i], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((rr) => {
                    itemResults[i] = rr;
                }));
            }
            else {
                itemResults[i] = r;
                if (abortEarly && !itemAborted && r.issues.length)
                    itemAborted = aborted(r);
            }
        }
        // sound because rest is non-empty exactly when every fixed index is present, the one case handleTupleResults cannot discard an item's issues
        if (def.rest && !itemAborted) {
            let i = items.length - 1;
            const rest = input.slice(items.length);
            let seen = payload.issues.length;
            for (const el of rest) {
                if (abortEarly && payload.issues.length !== seen) {
                    if (aborted(payload, seen))
                        break;
                    seen = payload.issues.length;
                }
                i++;
                const result = def.rest._zod.run({ value: el, issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((r) => handleTupleResult(r, payload, i)));
                }
                else {
                    handleTupleResult(result, payload, i);
                }
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => handleTupleResults(itemResults, payload, items, input, optoutStart));
        }
        return handleTupleResults(itemResults, payload, items, input, optoutStart);
    };
});
function getTupleOptStart(items, key) {
    for (let i = items.length - 1; i >= 0; i--) {
        // optin is a three-rung ladder so any rung above `undefined` permits an absent slot; optout stays two-valued.
        const omittable = key === "optin" ? items[i]._zod.optin !== undefined : items[i]._zod.optout === "optional";
        if (!omittable)
            return i + 1;
    }
    return 0;
}
function handleTupleResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
function handleTupleResults(itemResults, final, items, input, optoutStart) {
    // Walk results in order. Mirror $ZodObject's swallow-on-absent-optional rule, but only after `optoutStart`: the first index where the output tuple tail can be absent.
    for (let i = 0; i < items.length; i++) {
        const r = itemResults[i];
        const isPresent = i < input.length;
        // The array analog of `handlePropertyResult`'s absent-key early return: the middle rung permits absence without supplying anything in its place, so the tail truncates here instead of materializing whatever the item made of `undefined`.
        if (!isPresent && i >= optoutStart && items[i]._zod.optin === "optional") {
            final.value.length = i;
            break;
        }
        if (r.issues.length) {
            if (!isPresent && i >= optoutStart) {
                final.value.length = i;
                break;
            }
            final.issues.push(...prefixIssues(i, r.issues));
        }
        final.value[i] = r.value;
    }
    // Drop trailing slots that produced `undefined` for absent input
    // (the array analog of an absent optional key on an object). The
    // `i >= input.length` floor is critical: an explicit `undefined`
    // *inside* the input must be preserved even when the schema is
    // optional-out (e.g. `z.string().or(z.undefined())` accepting an
    // explicit undefined value).
    for (let i = final.value.length - 1; i >= input.length; i--) {
        if (items[i]._zod.optout === "optional" && final.value[i] === undefined) {
            final.value.length = i;
        }
        else {
            break;
        }
    }
    return final;
}
const $ZodRecord = /*@__PURE__*/ $constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && number.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
});
const $ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMap", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Map)) {
            payload.issues.push({
                expected: "map",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Map(), ctx) : new Map();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const [key, value] of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
            const valueResult = def.valueType._zod.run({ value: value, issues: [] }, ctx);
            if (keyResult instanceof Promise || valueResult instanceof Promise) {
                proms.push(Promise.all([keyResult, valueResult]).then(([keyResult, valueResult]) => {
                    handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
                }));
            }
            else {
                handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
            }
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, mapSize);
})));
function handleMapResult(keyResult, valueResult, final, key, input, inst, ctx) {
    if (keyResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, keyResult.issues));
        }
        else {
            final.issues.push({
                code: "invalid_key",
                origin: "map",
                input,
                inst,
                issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    if (valueResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, valueResult.issues));
        }
        else {
            final.issues.push({
                origin: "map",
                code: "invalid_element",
                input,
                inst,
                key: key,
                issues: valueResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    final.value.set(keyResult.value, valueResult.value);
}
const $ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSet", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Set)) {
            payload.issues.push({
                input,
                inst,
                expected: "set",
                code: "invalid_type",
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Set(), ctx) : new Set();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const item of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const result = def.valueType._zod.run({ value: item, issues: [] }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleSetResult(result, payload)));
            }
            else
                handleSetResult(result, payload);
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, setSize);
})));
function handleSetResult(result, final) {
    if (result.issues.length) {
        final.issues.push(...result.issues);
    }
    final.value.add(result.value);
}
const $ZodEnum = /*@__PURE__*/ $constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodLiteral = /*@__PURE__*/ $constructor("$ZodLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const values = new Set(def.values);
    inst._zod.values = values;
    defineLazyInternal(inst, "pattern", (zod) => {
        const vals = zod.def.values;
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(vals.length
            ? `^(${vals
                .map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o))
                .join("|")})$`
            : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (values.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values: def.values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFile", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        // @ts-ignore
        if (input instanceof File)
            return payload;
        payload.issues.push({
            expected: "file",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ $constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ $constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNonOptional = /*@__PURE__*/ $constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
});
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
const $ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSuccess", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new core.$ZodEncodeError("ZodSuccess");
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => {
                payload.value = result.issues.length === 0;
                return payload;
            });
        }
        payload.value = result.issues.length === 0;
        return payload;
    };
})));
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ $constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
});
const $ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNaN", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "number" || !Number.isNaN(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "nan",
                code: "invalid_type",
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCodec", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        const direction = ctx.direction || "forward";
        if (direction === "forward") {
            const left = def.in._zod.run(payload, ctx);
            if (left instanceof Promise) {
                return left.then((left) => handleCodecAResult(left, def, ctx));
            }
            return handleCodecAResult(left, def, ctx);
        }
        else {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handleCodecAResult(right, def, ctx));
            }
            return handleCodecAResult(right, def, ctx);
        }
    };
})));
function handleCodecAResult(result, def, ctx) {
    if (result.issues.length) {
        // prevent further checks
        result.aborted = true;
        return result;
    }
    const direction = ctx.direction || "forward";
    if (direction === "forward") {
        const transformed = def.transform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.out, ctx));
        }
        return handleCodecTxResult(result, transformed, def.out, ctx);
    }
    else {
        const transformed = def.reverseTransform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.in, ctx));
        }
        return handleCodecTxResult(result, transformed, def.in, ctx);
    }
}
function handleCodecTxResult(left, value, nextSchema, ctx) {
    // Check if transform added any issues
    if (left.issues.length) {
        left.aborted = true;
        return left;
    }
    return nextSchema._zod.run({ value, issues: left.issues }, ctx);
}
const $ZodPreprocess = /*@__PURE__*/ $constructor("$ZodPreprocess", (inst, def) => {
    $ZodPipe.init(inst, def);
});
const $ZodReadonly = /*@__PURE__*/ $constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
});
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
// a leaf's pattern source with its own checks folded in: the last pattern-carrying check wins, else length bounds narrow the catch-all, else an integer format narrows the number form. the fold lives here instead of on `_zod.pattern` so a bundle without template literals never pays for it
function leafPattern(schema) {
    const def = schema._zod.def;
    let pattern = def.pattern;
    let isInt = !!def.format?.includes("int");
    let minimum;
    let maximum;
    for (const ch of def.checks ?? []) {
        const d = ch._zod.def;
        if (d.pattern)
            pattern = d.pattern;
        isInt || (isInt = !!d.format?.includes("int"));
        const lo = d.minimum ?? d.length;
        const hi = d.maximum ?? d.length;
        if (lo !== undefined && (minimum === undefined || lo > minimum))
            minimum = lo;
        if (hi !== undefined && (maximum === undefined || hi < maximum))
            maximum = hi;
    }
    if (pattern)
        return pattern.source;
    // an empty range matches nothing at runtime, and `{8,5}` is not a legal quantifier
    if (minimum !== undefined && maximum !== undefined && minimum > maximum)
        return "(?!)";
    if (minimum !== undefined || maximum !== undefined)
        return regexes.string({ minimum, maximum }).source;
    const own = schema._zod.pattern;
    return (isInt && own === regexes.number ? regexes.integer : own)?.source;
}
// a part's pattern source. a wrapper's pattern embeds its inner pattern's source verbatim, so the folded form is substituted in place without knowing the wrapper's own composition; a union's options are joined the way the union builds its own pattern
function partPattern(schema) {
    const def = schema._zod.def;
    const own = schema._zod.pattern?.source;
    // lazy resolves its inner on the internals, not the def
    const inner = def.innerType ?? schema._zod.innerType;
    if (inner) {
        const before = inner._zod.pattern?.source;
        const after = partPattern(inner);
        if (own && before && after && after !== before) {
            return own.replace(util.cleanRegex(before), () => util.cleanRegex(after));
        }
        return own;
    }
    if (def.options) {
        const sources = def.options.map(partPattern);
        if (sources.every(Boolean))
            return `^(${sources.map((s) => util.cleanRegex(s)).join("|")})$`;
    }
    return leafPattern(schema);
}
const $ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodTemplateLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const regexParts = [];
    for (const part of def.parts) {
        if (typeof part === "object" && part !== null) {
            // is Zod schema
            const source = partPattern(part);
            if (!source) {
                throw new Error(`Invalid template literal part, no pattern found: ${[...part._zod.traits].shift()}`);
            }
            regexParts.push(util.cleanRegex(source));
        }
        else if (part === null || util.primitiveTypes.has(typeof part)) {
            regexParts.push(util.escapeRegex(`${part}`));
        }
        else {
            throw new Error(`Invalid template literal part: ${part}`);
        }
    }
    inst._zod.pattern = new RegExp(`^${regexParts.join("")}$`);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "string") {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "string",
                code: "invalid_type",
            });
            return payload;
        }
        inst._zod.pattern.lastIndex = 0;
        if (!inst._zod.pattern.test(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                code: "invalid_format",
                format: def.format ?? "template_literal",
                pattern: inst._zod.pattern.source,
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFunction", (inst, def) => {
    $ZodType.init(inst, def);
    // Defined, not assigned: the classic prototype exposes `_def` as a getter with no setter.
    Object.defineProperty(inst, "_def", { value: def });
    inst._zod.def = def;
    inst.implement = (func) => {
        if (typeof func !== "function") {
            throw new Error("implement() must be called with a function");
        }
        // Defined inline so the closure stays anonymous: binding it to a `const` first names it, which costs 256 bytes per implemented function.
        return Object.defineProperty(function (...args) {
            const parsedArgs = inst._def.input ? parse(inst._def.input, args) : args;
            const result = Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return parse(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst.implementAsync = (func) => {
        if (typeof func !== "function") {
            throw new Error("implementAsync() must be called with a function");
        }
        return Object.defineProperty(async function (...args) {
            const parsedArgs = inst._def.input ? await parseAsync(inst._def.input, args) : args;
            const result = await Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return await parseAsync(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "function") {
            payload.issues.push({
                code: "invalid_type",
                expected: "function",
                input: payload.value,
                inst,
            });
            return payload;
        }
        // Check if output is a promise type to determine if we should use async implementation
        const hasPromiseOutput = inst._def.output && inst._def.output._zod.def.type === "promise";
        if (hasPromiseOutput) {
            payload.value = inst.implementAsync(payload.value);
        }
        else {
            payload.value = inst.implement(payload.value);
        }
        return payload;
    };
    inst.input = (...args) => {
        const F = inst.constructor;
        if (Array.isArray(args[0])) {
            return new F({
                type: "function",
                input: new $ZodTuple({
                    type: "tuple",
                    items: args[0],
                    rest: args[1],
                }),
                output: inst._def.output,
            });
        }
        return new F({
            type: "function",
            input: args[0],
            output: inst._def.output,
        });
    };
    inst.output = (output) => {
        const F = inst.constructor;
        return new F({
            type: "function",
            input: inst._def.input,
            output,
        });
    };
    return inst;
})));
const $ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPromise", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        return Promise.resolve(payload.value).then((inner) => def.innerType._zod.run({ value: inner, issues: [] }, ctx));
    };
})));
const $ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodLazy", (inst, def) => {
    $ZodType.init(inst, def);
    // Cache the resolved inner type on the shared `def` so all clones of this lazy (e.g. via `.describe()`/`.meta()`) share the same inner instance, preserving identity for cycle detection on recursive schemas.
    util.defineLazy(inst._zod, "innerType", () => {
        const d = def;
        if (!d._cachedInner)
            d._cachedInner = def.getter();
        return d._cachedInner;
    });
    util.defineLazyInternal(inst, "pattern", (zod) => zod.innerType?._zod?.pattern);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.innerType?._zod?.propValues);
    util.defineLazyInternal(inst, "optin", (zod) => zod.innerType?._zod?.optin ?? undefined);
    util.defineLazyInternal(inst, "optout", (zod) => zod.innerType?._zod?.optout ?? undefined);
    inst._zod.parse = (payload, ctx) => {
        const inner = inst._zod.innerType;
        return inner._zod.run(payload, ctx);
    };
})));
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(util_issue(_iss));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/api.js




function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedString(Class, params) {
    return new Class(snapshotChecks({ type: "string", coerce: true, ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mac(Class, params) {
    return new Class({
        type: "string",
        format: "mac",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _creditCard(Class, params) {
    return new Class({
        type: "string",
        format: "credit_card",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _iban(Class, params) {
    return new Class({
        type: "string",
        format: "iban",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
const TimePrecision = {
    Any: null,
    Minute: -1,
    Second: 0,
    Millisecond: 3,
    Microsecond: 6,
};
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedNumber(Class, params) {
    return new Class(snapshotChecks({ type: "number", coerce: true, checks: [], ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float64(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "int32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "uint32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBoolean(Class, params) {
    return new Class({
        type: "boolean",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _bigint(Class, params) {
    return new Class({
        type: "bigint",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBigint(Class, params) {
    return new Class({
        type: "bigint",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "int64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "uint64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _symbol(Class, params) {
    return new Class({
        type: "symbol",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_undefined(Class, params) {
    return new Class({
        type: "undefined",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_null(Class, params) {
    return new Class({
        type: "null",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _any(Class) {
    return new Class({
        type: "any",
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _void(Class, params) {
    return new Class({
        type: "void",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _date(Class, params) {
    return new Class({
        type: "date",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedDate(Class, params) {
    return new Class({
        type: "date",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nan(Class, params) {
    return new Class({
        type: "nan",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _positive(params) {
    return _gt(0, params);
}
// negative
// @__NO_SIDE_EFFECTS__
function _negative(params) {
    return _lt(0, params);
}
// nonpositive
// @__NO_SIDE_EFFECTS__
function _nonpositive(params) {
    return _lte(0, params);
}
// nonnegative
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
    return _gte(0, params);
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new $ZodCheckMultipleOf({
        check: "multiple_of",
        ...normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxSize(maximum, params) {
    return new checks.$ZodCheckMaxSize({
        check: "max_size",
        ...util.normalizeParams(params),
        maximum,
    });
}
// @__NO_SIDE_EFFECTS__
function _minSize(minimum, params) {
    return new checks.$ZodCheckMinSize({
        check: "min_size",
        ...util.normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _size(size, params) {
    return new checks.$ZodCheckSizeEquals({
        check: "size_equals",
        ...util.normalizeParams(params),
        size,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new $ZodCheckMaxLength({
        check: "max_length",
        ...normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new $ZodCheckLengthEquals({
        check: "length_equals",
        ...normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new $ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new $ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new $ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new $ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new $ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new $ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _property(property, schema, params) {
    return new checks.$ZodCheckProperty({
        check: "property",
        property,
        schema,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _properties(shape, params) {
    return new $ZodCheckProperties({
        check: "properties",
        shape,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mime(types, params) {
    return new checks.$ZodCheckMimeType({
        check: "mime_type",
        mime: types,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new $ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _union(Class, options, params) {
    return new Class({
        type: "union",
        options,
        ...util.normalizeParams(params),
    });
}
function _xor(Class, options, params) {
    return new Class({
        type: "union",
        options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _discriminatedUnion(Class, discriminator, options, params) {
    return new Class({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _intersection(Class, left, right) {
    return new Class({
        type: "intersection",
        left,
        right,
    });
}
// export function _tuple(
//   Class: util.SchemaClass<schemas.$ZodTuple>,
//   items: [],
//   params?: string | $ZodTupleParams
// ): schemas.$ZodTuple<[], null>;
// @__NO_SIDE_EFFECTS__
function _tuple(Class, items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof schemas.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new Class({
        type: "tuple",
        items,
        rest,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _record(Class, keyType, valueType, params) {
    return new Class({
        type: "record",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _map(Class, keyType, valueType, params) {
    return new Class({
        type: "map",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _set(Class, valueType, params) {
    return new Class({
        type: "set",
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _enum(Class, values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    // if (Array.isArray(values)) {
    //   for (const value of values) {
    //     entries[value] = value;
    //   }
    // } else {
    //   Object.assign(entries, values);
    // }
    // const entries: util.EnumLike = {};
    // for (const val of values) {
    //   entries[val] = val;
    // }
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function _nativeEnum(Class, entries, params) {
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _literal(Class, value, params) {
    return new Class({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _file(Class, params) {
    return new Class({
        type: "file",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _transform(Class, fn) {
    return new Class({
        type: "transform",
        transform: fn,
    });
}
// @__NO_SIDE_EFFECTS__
function _optional(Class, innerType) {
    return new Class({
        type: "optional",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _nullable(Class, innerType) {
    return new Class({
        type: "nullable",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _default(Class, innerType, defaultValue) {
    return new Class({
        type: "default",
        innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : util.shallowClone(defaultValue);
        },
    });
}
// @__NO_SIDE_EFFECTS__
function _nonoptional(Class, innerType, params) {
    return new Class({
        type: "nonoptional",
        innerType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _success(Class, innerType) {
    return new Class({
        type: "success",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _catch(Class, innerType, catchValue) {
    return new Class({
        type: "catch",
        innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : util.constantCatch(catchValue)),
    });
}
// @__NO_SIDE_EFFECTS__
function _pipe(Class, in_, out) {
    return new Class({
        type: "pipe",
        in: in_,
        out,
    });
}
// @__NO_SIDE_EFFECTS__
function _readonly(Class, innerType) {
    return new Class({
        type: "readonly",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _templateLiteral(Class, parts, params) {
    return new Class({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lazy(Class, getter) {
    return new Class({
        type: "lazy",
        getter,
    });
}
// @__NO_SIDE_EFFECTS__
function _promise(Class, innerType) {
    return new Class({
        type: "promise",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _custom(Class, fn, _params) {
    const norm = util.normalizeParams(_params);
    norm.abort ?? (norm.abort = true); // default to abort:false
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...norm,
    });
    return schema;
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(util_issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
// @__NO_SIDE_EFFECTS__
function describe(description) {
    const ch = new $ZodCheck({ check: "describe" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, description });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function meta(metadata) {
    const ch = new $ZodCheck({ check: "meta" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, ...metadata });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _stringbool(Classes, _params) {
    const params = util.normalizeParams(_params);
    let truthyArray = params.truthy ?? ["true", "1", "yes", "on", "y", "enabled"];
    let falsyArray = params.falsy ?? ["false", "0", "no", "off", "n", "disabled"];
    if (params.case !== "sensitive") {
        truthyArray = truthyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
        falsyArray = falsyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
    }
    const truthySet = new Set(truthyArray);
    const falsySet = new Set(falsyArray);
    const _Codec = Classes.Codec ?? schemas.$ZodCodec;
    const _Boolean = Classes.Boolean ?? schemas.$ZodBoolean;
    const _String = Classes.String ?? schemas.$ZodString;
    const stringSchema = new _String({ type: "string", error: params.error });
    const booleanSchema = new _Boolean({ type: "boolean", error: params.error });
    const codec = new _Codec({
        type: "pipe",
        in: stringSchema,
        out: booleanSchema,
        transform: ((input, payload) => {
            let data = input;
            if (params.case !== "sensitive")
                data = data.toLowerCase();
            if (truthySet.has(data)) {
                return true;
            }
            else if (falsySet.has(data)) {
                return false;
            }
            else {
                payload.issues.push({
                    code: "invalid_value",
                    expected: "stringbool",
                    values: [...truthySet, ...falsySet],
                    input: payload.value,
                    inst: codec,
                    continue: false,
                });
                return {};
            }
        }),
        reverseTransform: ((input, _payload) => {
            if (input === true) {
                return truthyArray[0] || "true";
            }
            else {
                return falsyArray[0] || "false";
            }
        }),
        error: params.error,
    });
    codec._zod.bag.truthy = truthyArray;
    codec._zod.bag.falsy = falsyArray;
    codec._zod.bag.case = params.case ?? "insensitive";
    return codec;
}
// @__NO_SIDE_EFFECTS__
function _stringFormat(Class, format, fnOrRegex, _params = {}) {
    const params = util.normalizeParams(_params);
    const def = {
        check: "string_format",
        type: "string",
        format,
        fn: typeof fnOrRegex === "function" ? fnOrRegex : (val) => fnOrRegex.test(val),
        ...params,
    };
    if (fnOrRegex instanceof RegExp) {
        def.pattern = fnOrRegex;
    }
    const inst = new Class(def);
    return inst;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/to-json-schema.js


function assignProps(target, ...sources) {
    for (const source of sources) {
        for (const key of Reflect.ownKeys(source)) {
            if (Object.prototype.propertyIsEnumerable.call(source, key)) {
                util_assignProp(target, key, source[key]);
            }
        }
    }
    return target;
}
// function initializeContext<T extends schemas.$ZodType>(inputs: JSONSchemaGeneratorParams<T>): ToJSONSchemaContext<T> {
//   return {
//     processor: inputs.processor,
//     metadataRegistry: inputs.metadata ?? globalRegistry,
//     target: inputs.target ?? "draft-2020-12",
//     unrepresentable: inputs.unrepresentable ?? "throw",
//   };
// }
function to_json_schema_initializeContext(params) {
    // Normalize target: convert old non-hyphenated versions to hyphenated versions
    let target = params?.target ?? "draft-2020-12";
    if (target === "draft-4")
        target = "draft-04";
    if (target === "draft-7")
        target = "draft-07";
    return {
        processors: params.processors ?? {},
        metadataRegistry: params?.metadata ?? globalRegistry,
        target,
        unrepresentable: params?.unrepresentable ?? "throw",
        override: params?.override ?? (() => { }),
        io: params?.io ?? "output",
        counter: 0,
        seen: new Map(),
        sharedDefsExtractedFor: undefined,
        sharedEmitDoneFor: undefined,
        cycles: params?.cycles ?? "ref",
        reused: params?.reused ?? "inline",
        intersections: [],
        deferred: [],
        external: params?.external ?? undefined,
    };
}
/**
 * Applies the `unrepresentable` setting at a site that has no JSON Schema equivalent. Throws
 * `message` unless the setting (or the handler's return value) says otherwise. Returns `true` if a
 * custom JSON Schema was written into `json`, in which case the caller must not write its own.
 */
function handleUnrepresentable(schema, ctx, json, params, message) {
    const result = typeof ctx.unrepresentable === "function"
        ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message })
        : ctx.unrepresentable;
    if (result === "any")
        return false;
    if (result === undefined || result === "throw")
        throw new Error(message);
    Object.assign(json, result);
    return true;
}
// never rename this back to `process`: bundler polyfills inject a top-level `const process` that a lexical declaration of the same name collides with (#6397)
function to_json_schema_processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
    var _a;
    const def = schema._zod.def;
    // check for schema in seens
    const seen = ctx.seen.get(schema);
    if (seen) {
        seen.count++;
        // check if cycle
        const isCycle = _params.schemaPath.includes(schema);
        if (isCycle) {
            seen.cycle = _params.path;
        }
        return seen.schema;
    }
    // initialize
    const result = { schema: {}, count: 1, cycle: undefined, path: _params.path };
    ctx.seen.set(schema, result);
    ctx.sharedDefsExtractedFor = undefined;
    ctx.sharedEmitDoneFor = undefined;
    // custom method overrides default behavior
    const overrideSchema = schema._zod.toJSONSchema?.();
    if (overrideSchema) {
        result.schema = overrideSchema;
    }
    else {
        const params = {
            ..._params,
            schemaPath: [..._params.schemaPath, schema],
            path: _params.path,
        };
        if (schema._zod.processJSONSchema) {
            schema._zod.processJSONSchema(ctx, result.schema, params);
        }
        else {
            const _json = result.schema;
            const processor = ctx.processors[def.type];
            if (!processor) {
                throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
            }
            processor(schema, ctx, _json, params);
        }
        const parent = schema._zod.parent;
        if (parent) {
            // Also set ref if processor didn't (for inheritance)
            if (!result.ref)
                result.ref = parent;
            to_json_schema_processSchema(parent, ctx, params);
            ctx.seen.get(parent).isParent = true;
        }
    }
    // metadata
    const meta = ctx.metadataRegistry.get(schema);
    if (meta)
        assignProps(result.schema, meta);
    if (ctx.io === "input" && isTransforming(schema)) {
        // examples/defaults only apply to output type of pipe
        delete result.schema.examples;
        delete result.schema.default;
    }
    // set prefault as default
    if (ctx.io === "input" && "_prefault" in result.schema)
        (_a = result.schema).default ?? (_a.default = result.schema._prefault);
    delete result.schema._prefault;
    // pulling fresh from ctx.seen in case it was overwritten
    const _result = ctx.seen.get(schema);
    return _result.schema;
}
/** @deprecated Renamed to `processSchema`. An export alias declares no binding, so it is safe to keep. */

// Escape a reference token for use in a JSON Pointer fragment (RFC 6901): `~` becomes `~0` and `/` becomes `~1`. The `~` replacement must run first.
function encodeJSONPointerSegment(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function to_json_schema_extractDefs(ctx, schema
// params: EmitParams
) {
    // iterate over seen map;
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // With `external` set, every registered schema resolves through the external branch of `makeURI`, so the root branch below produces the same ref the external branch would — this pass is identical whichever schema it is called with, and only needs to run once.
    if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
        return;
    // Track ids to detect duplicates across different schemas
    const idToSchema = new Map();
    for (const entry of ctx.seen.entries()) {
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            const existing = idToSchema.get(id);
            if (existing && existing !== entry[0]) {
                throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
            }
            idToSchema.set(id, entry[0]);
        }
    }
    // returns a ref to the schema defId will be empty if the ref points to an external schema (or #)
    const makeURI = (entry) => {
        // comparing the seen objects because sometimes multiple schemas map to the same seen object. e.g. lazy
        // external is configured
        const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
        if (ctx.external) {
            const externalId = ctx.external.registry.get(entry[0])?.id; // ?? "__shared";// `__schema${ctx.counter++}`;
            // check if schema is in the external registry
            const uriGenerator = ctx.external.uri ?? ((id) => id);
            if (externalId) {
                return { ref: uriGenerator(externalId) };
            }
            // otherwise, add to __shared
            const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
            entry[1].defId = id; // set defId so it will be reused if needed
            return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
        }
        const uriPrefix = `#`;
        const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
        // an id-less root has nowhere to be extracted to, so it stays inline and self-references as `#`
        if (entry[1] === root && !entry[1].schema.id) {
            return { ref: uriPrefix };
        }
        // self-contained schema
        const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
        return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
    };
    // stored cached version in `def` property remove all properties, set $ref
    const extractToDef = (entry) => {
        // if the schema is already a reference, do not extract it
        if (entry[1].schema.$ref) {
            return;
        }
        const seen = entry[1];
        const { ref, defId } = makeURI(entry);
        seen.def = { ...seen.schema };
        // defId won't be set if the schema is a reference to an external schema or if the schema is the root schema
        if (defId)
            seen.defId = defId;
        // wipe away all properties except $ref
        const schema = seen.schema;
        for (const key in schema) {
            delete schema[key];
        }
        schema.$ref = ref;
    };
    // throw on cycles
    // break cycles
    if (ctx.cycles === "throw") {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.cycle) {
                throw new Error("Cycle detected: " +
                    `#/${seen.cycle?.join("/")}/<root>` +
                    '\n\nSet the `cycles` parameter to `"ref"` to resolve cyclical schemas with defs.');
            }
        }
    }
    // extract schemas into $defs
    for (const entry of ctx.seen.entries()) {
        const seen = entry[1];
        // convert root schema to # $ref
        if (schema === entry[0]) {
            extractToDef(entry); // this has special handling for the root schema
            continue;
        }
        // extract schemas that are in the external registry
        if (ctx.external) {
            const ext = ctx.external.registry.get(entry[0])?.id;
            if (schema !== entry[0] && ext) {
                extractToDef(entry);
                continue;
            }
        }
        // extract schemas with `id` meta
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            extractToDef(entry);
            continue;
        }
        // break cycles
        if (seen.cycle) {
            // any
            extractToDef(entry);
            continue;
        }
        // extract reused schemas
        if (seen.count > 1) {
            if (ctx.reused === "ref") {
                extractToDef(entry);
            }
        }
    }
    if (ctx.external)
        ctx.sharedDefsExtractedFor = ctx.external;
}
/** Rewrites `anyOf: [{type: "a"}, {type: "b"}]` to `type: ["a", "b"]`, which every JSON Schema draft treats as equivalent and most consumers render far better for the nullable case. Only branches that are a bare type assertion qualify — anything carrying a constraint, `$ref`, `const` or metadata is left alone. Runs after `flattenRef`, so a branch an override decorated or `$defs` extraction turned into a `$ref` is no longer bare and correctly stays in `anyOf`. `oneOf` is excluded: `integer` and `number` overlap, so "exactly one" and "at least one" are not the same there. OpenAPI 3.0 is excluded: its `type` must be a single string. */
function compactTypeUnion(schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined)
        return;
    const types = [];
    for (const option of options) {
        if (!option || typeof option !== "object")
            return;
        // A branch that is itself a compactible union folds into this one — nested `anyOf` and a flat `type` array say the same thing. Compacting it first also makes the result independent of the order this pass walks the seen map in.
        compactTypeUnion(option);
        const keys = Object.keys(option);
        if (keys.length !== 1 || keys[0] !== "type")
            return;
        const type = option.type;
        for (const member of Array.isArray(type) ? type : [type]) {
            if (typeof member !== "string")
                return;
            if (!types.includes(member))
                types.push(member);
        }
    }
    delete schema.anyOf;
    // A `type` array must be non-empty and unique (metaschema); a single member is spelled as a bare string.
    schema.type = types.length === 1 ? types[0] : types;
}
/** Keywords `foldIntersection` knows how to combine. Anything else — `$ref`, `patternProperties`,
 * an annotation like `description` — makes a member unfoldable, so a constraint this does not
 * understand leaves the `allOf` alone instead of being silently dropped or misattributed. */
const FOLDABLE_KEYS = new Set(["type", "properties", "required", "additionalProperties"]);
const UNION_KEYS = ["oneOf", "anyOf"];
/** A member's constraint on a key it does not declare itself. A `catchall` states one; `false`, an absent `additionalProperties`, and the empty schema a loose object emits state nothing. */
function undeclaredConstraint(member) {
    const extra = member.additionalProperties;
    if (extra === undefined || extra === false || typeof extra !== "object" || extra === null)
        return null;
    return Object.keys(extra).length ? extra : null;
}
/** Combines object members into the single object they describe together, or returns `null` if any of them carries a keyword outside {@link FOLDABLE_KEYS}. */
function foldObjects(members) {
    const objects = [];
    for (const member of members) {
        // A boolean subschema is legal JSON Schema and carries no keywords to fold.
        if (typeof member !== "object" || member.type !== "object")
            return null;
        for (const key in member) {
            if (!FOLDABLE_KEYS.has(key))
                return null;
        }
        objects.push(member);
    }
    const properties = {};
    const required = new Set();
    for (const object of objects) {
        for (const key in object.properties) {
            // `in` would report a `__proto__` key as already present via the prototype chain and skip it.
            if (Object.prototype.hasOwnProperty.call(properties, key))
                continue;
            // Every member constrains this key: the ones that declare it say how, and a `catchall` member constrains it too even though it does not name it. The key has to satisfy all of them, which is the same intersection one level down.
            const parts = [];
            for (const other of objects) {
                const part = other.properties?.[key] ?? undeclaredConstraint(other);
                if (part === null || part === undefined)
                    continue;
                if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
                    parts.push(part);
            }
            const merged = parts.length === 1
                ? parts[0]
                : (foldObjects(parts) ?? { allOf: parts });
            util_assignProp(properties, key, merged);
        }
        for (const key of object.required ?? [])
            required.add(key);
    }
    const folded = { type: "object", properties };
    if (required.size)
        folded.required = [...required];
    // A key no member declares is rejected only when every member rejects it, so the fold is closed only when every member is. Otherwise it carries whatever the `catchall` members demand of such a key.
    if (objects.every((object) => object.additionalProperties === false)) {
        folded.additionalProperties = false;
    }
    else {
        const constraints = [];
        for (const object of objects) {
            const constraint = undeclaredConstraint(object);
            if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
                constraints.push(constraint);
        }
        if (constraints.length === 1)
            folded.additionalProperties = constraints[0];
        else if (constraints.length > 1)
            folded.additionalProperties = { allOf: constraints };
    }
    return folded;
}
/** `additionalProperties` in an `allOf` member sees only that member's own `properties`, so two
 * closed object members reject each other's keys and the schema validates nothing. Zod's parser
 * pools the key sets instead — `handleIntersectionResults` reports a key as unrecognized only when
 * *every* side rejects it — so the emitted schema has to pool them too, and folding the members
 * into one object is the encoding that says so on every target.
 *
 * This runs from `finalize`, after `extractDefs`, which is what keeps it clear of the `$ref`
 * machinery: a member extracted into `$defs` is already a `$ref` by now and declines to fold, so it
 * keeps its reference and its own closedness rather than being inlined as a stale copy. */
function foldIntersection(json) {
    const allOf = json.allOf;
    if (!Array.isArray(allOf) || allOf.length < 2)
        return;
    // An `override` runs before this pass and may have written object keywords onto the intersection itself. Those are deliberate, so decline rather than overwrite them.
    for (const key of FOLDABLE_KEYS)
        if (key in json)
            return;
    // An intersection distributes over a union: `A & (X | Y)` is `(A & X) | (A & Y)`. Only the first union is distributed over; a second one stays among the members every branch folds against, where it fails the object check and declines the whole intersection rather than multiplying out.
    const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
    let folded = null;
    if (!unions.length) {
        folded = foldObjects(allOf);
    }
    else {
        const union = unions[0];
        const keyword = UNION_KEYS.find((k) => Array.isArray(union[k]));
        if (Object.keys(union).length !== 1)
            return;
        const rest = allOf.filter((m) => m !== union);
        const branches = union[keyword].map((branch) => foldObjects([...rest, branch]));
        if (branches.some((b) => !b))
            return;
        folded = { [keyword]: branches };
    }
    if (!folded)
        return;
    delete json.allOf;
    assignProps(json, folded);
}
function to_json_schema_finalize(ctx, schema) {
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // flatten refs - inherit properties from parent schemas
    const flattenRef = (zodSchema) => {
        const seen = ctx.seen.get(zodSchema);
        // already processed
        if (seen.ref === null)
            return;
        const schema = seen.def ?? seen.schema;
        const _cached = { ...schema };
        const ref = seen.ref;
        seen.ref = null; // prevent infinite recursion
        if (ref) {
            flattenRef(ref);
            const refSeen = ctx.seen.get(ref);
            const refSchema = refSeen.schema;
            // merge referenced schema into current
            if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
                // older drafts can't combine $ref with other properties
                schema.allOf = schema.allOf ?? [];
                schema.allOf.push(refSchema);
            }
            else {
                assignProps(schema, refSchema);
            }
            // restore child's own properties (child wins)
            assignProps(schema, _cached);
            const isParentRef = zodSchema._zod.parent === ref;
            // For parent chain, child is a refinement - remove parent-only properties
            if (isParentRef) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (!(key in _cached)) {
                        delete schema[key];
                    }
                }
            }
            // When ref was extracted to $defs, remove properties that match the definition
            if (refSchema.$ref && refSeen.def) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (key in refSeen.def && JSON.stringify(schema[key]) === JSON.stringify(refSeen.def[key])) {
                        delete schema[key];
                    }
                }
            }
        }
        // If parent was extracted (has $ref), propagate $ref to this schema. This handles cases like: readonly().meta({id}).describe() where processor sets ref to innerType but parent should be referenced
        const parent = zodSchema._zod.parent;
        if (parent && parent !== ref) {
            // Ensure parent is processed first so its def has inherited properties
            flattenRef(parent);
            const parentSeen = ctx.seen.get(parent);
            if (parentSeen?.schema.$ref) {
                schema.$ref = parentSeen.schema.$ref;
                // De-duplicate with parent's definition
                if (parentSeen.def) {
                    for (const key in schema) {
                        if (key === "$ref" || key === "allOf")
                            continue;
                        if (key in parentSeen.def && JSON.stringify(schema[key]) === JSON.stringify(parentSeen.def[key])) {
                            delete schema[key];
                        }
                    }
                }
            }
        }
        // execute overrides
        ctx.override({
            zodSchema: zodSchema,
            jsonSchema: schema,
            path: seen.path ?? [],
        });
    };
    // Flattening walks the whole map and clears each `ref` as it goes, so a second call over the same map is a no-op scan. Skip it outright once it has run for a registry conversion.
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of [...ctx.seen.entries()].reverse()) {
            flattenRef(entry[0]);
        }
        if (ctx.target !== "openapi-3.0") {
            for (const entry of ctx.seen.entries()) {
                compactTypeUnion(entry[1].def ?? entry[1].schema);
            }
        }
        for (const rewrite of ctx.deferred)
            rewrite();
        // After flattening, every member that was extracted is a `$ref`, so the fold sees the final shape. A schema that inherits an intersection — through `z.lazy`, or any `ref` chain — holds the same `allOf` array, so fold by array identity to catch every copy.
        if (ctx.intersections.length) {
            const carriers = new Map();
            for (const seen of ctx.seen.values()) {
                for (const json of [seen.schema, seen.def]) {
                    const allOf = json?.allOf;
                    if (!Array.isArray(allOf))
                        continue;
                    const existing = carriers.get(allOf);
                    if (existing)
                        existing.push(json);
                    else
                        carriers.set(allOf, [json]);
                }
            }
            for (const allOf of ctx.intersections) {
                for (const json of carriers.get(allOf) ?? [])
                    foldIntersection(json);
            }
        }
    }
    const result = {};
    if (ctx.target === "draft-2020-12") {
        result.$schema = "https://json-schema.org/draft/2020-12/schema";
    }
    else if (ctx.target === "draft-07") {
        result.$schema = "http://json-schema.org/draft-07/schema#";
    }
    else if (ctx.target === "draft-04") {
        result.$schema = "http://json-schema.org/draft-04/schema#";
    }
    else if (ctx.target === "openapi-3.0") {
        // OpenAPI 3.0 schema objects should not include a $schema property
    }
    else {
        // Arbitrary string values are allowed but won't have a $schema property set
    }
    if (ctx.external?.uri) {
        const id = ctx.external.registry.get(schema)?.id;
        if (!id)
            throw new Error("Schema is missing an `id` property");
        result.$id = ctx.external.uri(id);
    }
    // when the root was extracted into $defs, `root.schema` is the `$ref` wrapper and `root.def` is the body that now lives under $defs
    assignProps(result, root.defId ? root.schema : (root.def ?? root.schema));
    // The `id` in `.meta()` is a Zod-specific registration tag used to extract schemas into $defs — it is not user-facing JSON Schema metadata. Strip it from the output body where it would otherwise leak. The id is preserved implicitly via the $defs key (and via $ref paths).
    const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
    if (rootMetaId !== undefined && result.id === rootMetaId)
        delete result.id;
    // build defs object. With `external`, `defs` is the shared object every schema writes into, so the same entries are reassigned on every call. Without it, `defs` is fresh per call and must be rebuilt.
    const defs = ctx.external?.defs ?? {};
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.def && seen.defId) {
                if (seen.def.id === seen.defId)
                    delete seen.def.id;
                util_assignProp(defs, seen.defId, seen.def);
            }
        }
    }
    if (ctx.external)
        ctx.sharedEmitDoneFor = ctx.external;
    // set definitions in result
    if (ctx.external) {
    }
    else {
        if (Object.keys(defs).length > 0) {
            if (ctx.target === "draft-2020-12") {
                result.$defs = defs;
            }
            else {
                result.definitions = defs;
            }
        }
    }
    try {
        // this "finalizes" this schema and ensures all cycles are removed each call to finalize() is functionally independent though the seen map is shared
        const finalized = JSON.parse(JSON.stringify(result));
        Object.defineProperty(finalized, "~standard", {
            value: {
                ...schema["~standard"],
                jsonSchema: {
                    input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
                    output: createStandardJSONSchemaMethod(schema, "output", ctx.processors),
                },
            },
            enumerable: false,
            writable: false,
        });
        return finalized;
    }
    catch (_err) {
        throw new Error("Error converting schema to JSON.");
    }
}
function isTransforming(_schema, _ctx) {
    const ctx = _ctx ?? { seen: new Set() };
    if (ctx.seen.has(_schema))
        return false;
    ctx.seen.add(_schema);
    const def = _schema._zod.def;
    if (def.type === "transform")
        return true;
    if (def.type === "array")
        return isTransforming(def.element, ctx);
    if (def.type === "set")
        return isTransforming(def.valueType, ctx);
    if (def.type === "lazy")
        return isTransforming(def.getter(), ctx);
    if (def.type === "promise" ||
        def.type === "optional" ||
        def.type === "nonoptional" ||
        def.type === "nullable" ||
        def.type === "readonly" ||
        def.type === "default" ||
        def.type === "prefault" ||
        def.type === "catch") {
        return isTransforming(def.innerType, ctx);
    }
    if (def.type === "intersection") {
        return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
    }
    if (def.type === "record" || def.type === "map") {
        return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
    }
    if (def.type === "pipe") {
        if (_schema._zod.traits.has("$ZodCodec"))
            return true;
        return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
    }
    if (def.type === "object") {
        for (const key in def.shape) {
            if (isTransforming(def.shape[key], ctx))
                return true;
        }
        return false;
    }
    if (def.type === "union") {
        for (const option of def.options) {
            if (isTransforming(option, ctx))
                return true;
        }
        return false;
    }
    if (def.type === "tuple") {
        for (const item of def.items) {
            if (isTransforming(item, ctx))
                return true;
        }
        if (def.rest && isTransforming(def.rest, ctx))
            return true;
        return false;
    }
    return false;
}
/**
 * Creates a toJSONSchema method for a schema instance.
 * This encapsulates the logic of initializing context, processing, extracting defs, and finalizing.
 */
const createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
    const ctx = to_json_schema_initializeContext({ ...params, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};
const createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
    const { libraryOptions, target } = params ?? {};
    const ctx = to_json_schema_initializeContext({ ...(libraryOptions ?? {}), target, io, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/json-schema-processors.js




const narrowMin = (agg, key, value) => {
    if (agg[key] === undefined || value > agg[key])
        agg[key] = value;
};
const narrowMax = (agg, key, value) => {
    if (agg[key] === undefined || value < agg[key])
        agg[key] = value;
};
const narrowBoth = (agg, value) => {
    narrowMin(agg, "minimum", value);
    narrowMax(agg, "maximum", value);
};
const addDivisor = (agg, value) => {
    agg.multipleOf ?? (agg.multipleOf = []);
    if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
};
const addPattern = (agg, pattern) => {
    agg.patterns ?? (agg.patterns = new Set());
    agg.patterns.add(pattern);
};
const intersectMime = (agg, mime) => {
    agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
// last-wins, matching the bag's historical write order; the flag keeps an integer format from being lost to a later float one
const setFormat = (agg, format) => {
    agg.format = format;
    if (format.includes("int"))
        agg.isInt = true;
};
const minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
const maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
const formatContributor = (ranges) => (agg, def) => {
    setFormat(agg, def.format);
    const [minimum, maximum] = ranges[def.format];
    narrowMin(agg, "minimum", minimum);
    narrowMax(agg, "maximum", maximum);
};
const contributors = {
    greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
    less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
    multiple_of: (agg, def) => addDivisor(agg, def.value),
    number_format: formatContributor(NUMBER_FORMAT_RANGES),
    bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
    min_length: minContributor,
    max_length: maxContributor,
    length_equals: (agg, def) => narrowBoth(agg, def.length),
    min_size: minContributor,
    max_size: maxContributor,
    size_equals: (agg, def) => narrowBoth(agg, def.size),
    string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
            addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
            agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
            agg.laxFormat = true;
    },
    mime_type: (agg, def) => intersectMime(agg, def.mime),
};
function aggregateChecks(schema) {
    const agg = {};
    const def = schema._zod.def;
    // a format schema is its own first check, same rule as $ZodType init
    const list = schema._zod.traits.has("$ZodCheck")
        ? [schema, ...(def.checks ?? [])]
        : (def.checks ?? []);
    for (const ch of list)
        contributors[ch._zod.def.check]?.(agg, ch._zod.def);
    // reconcile with the bag so third-party onattach contributions still land; first-party residue is never tighter than the fold, so merging it back is idempotent for one and additive for the other
    const bag = schema._zod.bag;
    if (bag.minimum !== undefined)
        narrowMin(agg, "minimum", bag.minimum);
    if (bag.exclusiveMinimum !== undefined)
        narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
    if (bag.maximum !== undefined)
        narrowMax(agg, "maximum", bag.maximum);
    if (bag.exclusiveMaximum !== undefined)
        narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
    if (bag.multipleOf !== undefined)
        addDivisor(agg, bag.multipleOf);
    if (bag.format !== undefined) {
        agg.format ?? (agg.format = bag.format);
        if (bag.format.includes("int"))
            agg.isInt = true;
    }
    if (bag.mime)
        intersectMime(agg, bag.mime);
    for (const pattern of bag.patterns ?? [])
        addPattern(agg, pattern);
    return agg;
}
const formatMap = {
    guid: "uuid",
    url: "uri",
    datetime: "date-time",
    json_string: "json-string",
    regex: "", // do not set
};
// ==================== SIMPLE TYPE PROCESSORS ====================
// the runtime patterns are lax so parse paths never overflow the regex stack; the emitted schema swaps in the exact block forms, which zod itself never executes
const exactPatterns = new Map([
    [base64Charset, base64],
    [base64urlCharset, base64url],
]);
const exactPattern = (p) => exactPatterns.get(p) ?? p;
const stringProcessor = (schema, ctx, _json, _params) => {
    const json = _json;
    json.type = "string";
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minLength = minimum;
    if (typeof maximum === "number")
        json.maxLength = maximum;
    // custom pattern overrides format
    if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
            delete json.format; // empty format is not valid
        // `z.iso.time()` is never full-time, and `laxFormat` carries the datetime shapes that also accept what their keyword forbids
        if (format === "time" || laxFormat) {
            delete json.format;
        }
    }
    if (contentEncoding)
        json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
            json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
            json.allOf = [
                ...patternList.map((regex) => ({
                    ...(ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0"
                        ? { type: "string" }
                        : {}),
                    pattern: regex.source,
                })),
            ];
        }
    }
};
const numberProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
    json.type = isInt ? "integer" : "number";
    // when both minimum and exclusiveMinimum exist, pick the more restrictive one
    const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
    const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
    if (exMin) {
        if (legacy) {
            json.minimum = exclusiveMinimum;
            json.exclusiveMinimum = true;
        }
        else {
            json.exclusiveMinimum = exclusiveMinimum;
        }
    }
    else if (typeof minimum === "number") {
        json.minimum = minimum;
    }
    if (exMax) {
        if (legacy) {
            json.maximum = exclusiveMaximum;
            json.exclusiveMaximum = true;
        }
        else {
            json.exclusiveMaximum = exclusiveMaximum;
        }
    }
    else if (typeof maximum === "number") {
        json.maximum = maximum;
    }
    if (multipleOf) {
        // JSON Schema requires a divisor strictly greater than zero, and a non-finite one does not survive JSON at all. A negative divisor accepts exactly what its absolute value accepts, so it still maps; zero, NaN and Infinity have no keyword form.
        const divisors = new Set();
        for (const divisor of multipleOf) {
            if (Number.isFinite(divisor) && divisor !== 0)
                divisors.add(Math.abs(divisor));
            else
                handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        // chained divisors are a conjunction the keyword cannot carry alone, so extras ride an allOf, same as stacked patterns
        const [first, ...rest] = divisors;
        if (first !== undefined)
            json.multipleOf = first;
        if (rest.length)
            json.allOf = [...(json.allOf ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
};
const booleanProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const bigintProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "BigInt cannot be represented in JSON Schema");
};
const symbolProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Symbols cannot be represented in JSON Schema");
};
const nullProcessor = (_schema, ctx, json, _params) => {
    if (ctx.target === "openapi-3.0") {
        json.type = "string";
        json.nullable = true;
        json.enum = [null];
    }
    else {
        json.type = "null";
    }
};
const undefinedProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Undefined cannot be represented in JSON Schema");
};
const voidProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Void cannot be represented in JSON Schema");
};
const neverProcessor = (_schema, _ctx, json, _params) => {
    json.not = {};
};
const anyProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const unknownProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const dateProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Date cannot be represented in JSON Schema");
};
const enumProcessor = (schema, _ctx, json, _params) => {
    const def = schema._zod.def;
    const values = getEnumValues(def.entries);
    // an empty enum accepts nothing, same as z.never()
    if (values.length === 0) {
        json.not = {};
        return;
    }
    // Number enums can have both string and number values
    if (values.every((v) => typeof v === "number"))
        json.type = "number";
    if (values.every((v) => typeof v === "string"))
        json.type = "string";
    json.enum = values;
};
const literalProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // a literal with no values accepts nothing, same as z.never()
    if (def.values.length === 0) {
        json.not = {};
        return;
    }
    const vals = [];
    for (const val of def.values) {
        if (val === undefined) {
            // a custom schema replaces the whole literal, so there is nothing left to accumulate
            if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
                return;
            // otherwise do not add to vals
        }
        else if (typeof val === "bigint") {
            if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
                return;
            vals.push(Number(val));
        }
        else {
            vals.push(val);
        }
    }
    if (vals.length === 0) {
        // do nothing (an undefined literal was stripped)
    }
    else if (vals.length === 1) {
        const val = vals[0];
        json.type = val === null ? "null" : typeof val;
        if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
            json.enum = [val];
        }
        else {
            json.const = val;
        }
    }
    else {
        if (vals.every((v) => typeof v === "number"))
            json.type = "number";
        if (vals.every((v) => typeof v === "string"))
            json.type = "string";
        if (vals.every((v) => typeof v === "boolean"))
            json.type = "boolean";
        if (vals.every((v) => v === null))
            json.type = "null";
        json.enum = vals;
    }
};
const nanProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "NaN cannot be represented in JSON Schema");
};
const templateLiteralProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    const pattern = schema._zod.pattern;
    if (!pattern)
        throw new Error("Pattern not found in template literal");
    _json.type = "string";
    _json.pattern = pattern.source;
};
const fileProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    _json.type = "string";
    _json.format = "binary";
    _json.contentEncoding = "binary";
    const { minimum, maximum, mime } = aggregateChecks(schema);
    if (minimum !== undefined)
        _json.minLength = minimum;
    if (maximum !== undefined)
        _json.maxLength = maximum;
    if (!mime)
        return;
    // an empty intersection means the mime checks share no value, so nothing passes at runtime; `anyOf` must be non-empty, so the false schema is `not: {}`
    if (mime.length === 0)
        _json.not = {};
    else if (mime.length === 1)
        _json.contentMediaType = mime[0];
    // only contentMediaType differs, so the shared props stay at the root
    else
        _json.anyOf = mime.map((m) => ({ contentMediaType: m }));
};
const successProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const customProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
const functionProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Function types cannot be represented in JSON Schema");
};
const transformProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
const mapProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Map cannot be represented in JSON Schema");
};
const setProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Set cannot be represented in JSON Schema");
};
// ==================== COMPOSITE TYPE PROCESSORS ====================
const arrayProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
    json.type = "array";
    json.items = to_json_schema_processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"],
    });
};
// Transform and catch set `optin = "optional"` at runtime so the parser lets them observe an
// absent key, but their declared input type stays required. An input JSON Schema describes the
// declared type, so resolve past them to the schema that actually carries the optionality.
// Used by both `objectProcessor` (for `required`) and `tupleProcessor` (for `minItems`); see
// wiki/optionality.md, "The JSON Schema emitter reads the *static* value".
function inputOptin(schema) {
    const def = schema._zod.def;
    if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
        return inputOptin(def.out);
    }
    if (def.type === "catch") {
        return inputOptin(def.innerType);
    }
    return schema._zod.optin;
}
const objectProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const shape = def.shape;
    // dropping it while still emitting `additionalProperties: false` would emit a schema that rejects data this one requires
    const symbolKeys = Object.getOwnPropertySymbols(shape);
    if (symbolKeys.length &&
        handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
    }
    json.type = "object";
    json.properties = {};
    for (const key in shape) {
        // assignProp so a __proto__ key becomes an own property instead of hitting the inherited setter on the plain {} we build into
        util_assignProp(json.properties, key, to_json_schema_processSchema(shape[key], ctx, {
            ...params,
            path: [...params.path, "properties", key],
        }));
    }
    // required keys
    const requiredKeys = [];
    for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === undefined : field._zod.optout === undefined) {
            requiredKeys.push(key);
        }
    }
    if (requiredKeys.length > 0) {
        json.required = requiredKeys;
    }
    // catchall
    if (def.catchall?._zod.def.type === "never") {
        // strict
        json.additionalProperties = false;
    }
    else if (!def.catchall) {
        // regular
        if (ctx.io === "output")
            json.additionalProperties = false;
    }
    else if (def.catchall) {
        json.additionalProperties = to_json_schema_processSchema(def.catchall, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
};
const unionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // Exclusive unions (inclusive === false) use oneOf (exactly one match) instead of anyOf (one or more matches). This includes both z.xor() and discriminated unions
    const isExclusive = def.inclusive === false;
    const options = def.options.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i],
    }));
    if (isExclusive) {
        json.oneOf = options;
    }
    else {
        json.anyOf = options;
    }
};
const intersectionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const a = to_json_schema_processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0],
    });
    const b = to_json_schema_processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1],
    });
    const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
    const allOf = [
        ...(isSimpleIntersection(a) ? a.allOf : [a]),
        ...(isSimpleIntersection(b) ? b.allOf : [b]),
    ];
    json.allOf = allOf;
    // Recorded innermost first, so a nested intersection has already folded by the time this one is considered. The array is the handle rather than the schema, because a wrapper that inherits this schema shares the same array; `finalize` folds every object holding it. See `foldIntersection`.
    ctx.intersections.push(allOf);
};
const tupleProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "array";
    const prefixPath = ctx.target === "draft-2020-12" ? "prefixItems" : "items";
    const restPath = ctx.target === "draft-2020-12" ? "items" : ctx.target === "openapi-3.0" ? "items" : "additionalItems";
    const prefixItems = def.items.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, prefixPath, i],
    }));
    const rest = def.rest
        ? to_json_schema_processSchema(def.rest, ctx, {
            ...params,
            path: [...params.path, restPath, ...(ctx.target === "openapi-3.0" ? [def.items.length] : [])],
        })
        : null;
    let minItems = def.items.length;
    while (minItems > 0) {
        const item = def.items[minItems - 1];
        const optional = ctx.io === "input" ? inputOptin(item) !== undefined : item._zod.optout === "optional";
        if (!optional)
            break;
        minItems--;
    }
    const maxItems = def.items.length;
    const isClosed = !def.rest;
    if (ctx.target === "draft-2020-12") {
        json.prefixItems = prefixItems;
        if (isClosed) {
            json.items = false;
        }
        else if (rest) {
            json.items = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else if (ctx.target === "openapi-3.0") {
        json.items = {
            anyOf: prefixItems,
        };
        if (rest) {
            json.items.anyOf.push(rest);
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else {
        json.items = prefixItems;
        if (isClosed) {
            json.additionalItems = false;
        }
        else if (rest) {
            json.additionalItems = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    // explicit user-defined length checks take precedence
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
};
/** JSON object keys are always strings, so a numeric record key schema is re-expressed over the
 * numeric-string form the record parser matches. Deferred to `finalize`, after the flatten: a key
 * behind a wrapper only carries its own `type` before then, and a union key only has its branches.
 *
 * A numeric bound cannot apply to a property name, so `minimum` and its siblings are dropped rather
 * than carried over: keeping them beside `type: "string"` reproduces the match-nothing schema this
 * exists to fix. A key that carries one therefore emits wider than the record parses — `z.record(z.number().min(5), V)`
 * accepts `"3"` — which is the deliberate trade, since throwing on it would reject an ordinary schema
 * outright. */
function stringifyKeyNames(bySchema, json, visited) {
    // an extracted key that rewrites cannot go on sharing its definition — the string form a key position needs is not the number form every other reference wants — so it inlines. One that does not rewrite keeps the `$ref`.
    if (json.$ref) {
        // a recursive key holds its own reference inside its definition, so a node already on the path is left alone rather than resolved again
        if (visited.has(json))
            return json;
        visited.add(json);
        const def = bySchema.get(json)?.def;
        if (!def)
            return json;
        const inlined = stringifyKeyNames(bySchema, def, visited);
        return inlined === def ? json : inlined;
    }
    for (const keyword of ["anyOf", "oneOf"]) {
        const branches = json[keyword];
        if (!Array.isArray(branches))
            continue;
        const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
        // rebuilding regardless would detach a key that had nothing to re-express, dropping its `$ref` and leaking the internal `id`
        if (mapped.some((branch, i) => branch !== branches[i]))
            json = { ...json, [keyword]: mapped };
    }
    // a member that already admits a string leaves the key unconstrained, so the node's own type re-expresses only when every member is numeric
    const types = Array.isArray(json.type) ? json.type : [json.type];
    const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
    // a heterogeneous key carries no type at all, so its numeric members are caught here instead
    const values = json.enum ?? (json.const !== undefined ? [json.const] : undefined);
    if (!numericType && !values?.some((v) => typeof v === "number"))
        return json;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
    if (rest.enum)
        rest.enum = rest.enum.map((v) => (typeof v === "number" ? String(v) : v));
    else if (typeof rest.const === "number")
        rest.const = String(rest.const);
    // a heterogeneous key keeps its absent type: the stringified members already say what a key may be
    if (!numericType)
        return rest;
    rest.type = "string";
    if (!values)
        rest.pattern = (types.includes("number") ? number : integer).source;
    return rest;
}
/** Every record of one conversion, so the carriers are found in a single pass rather than once per record. */
const pendingRecords = new WeakMap();
function rewriteKeyNames(ctx) {
    // an extracted key is resolved by the object `extractToDef` left in its place, so the map is built once rather than searched per reference. `_zod.toJSONSchema` can hand the same object to two schemas, so the first entry carrying a body wins, as a search would have found it.
    const bySchema = new Map();
    for (const entry of ctx.seen.values()) {
        if (entry.def && !bySchema.has(entry.schema))
            bySchema.set(entry.schema, entry);
    }
    const rewrites = new Map();
    for (const record of pendingRecords.get(ctx) ?? []) {
        const seen = ctx.seen.get(record);
        const names = (seen?.def ?? seen?.schema)?.propertyNames;
        if (!names || names === true || rewrites.has(names))
            continue;
        const rewritten = stringifyKeyNames(bySchema, names, new Set());
        if (rewritten !== names)
            rewrites.set(names, rewritten);
    }
    if (!rewrites.size)
        return;
    // the flatten has already copied each record's own properties onto every wrapper by reference, and an extracted body is another such copy, so every carrier holding a rewritten key is updated together
    for (const entry of ctx.seen.values()) {
        for (const carrier of [entry.schema, entry.def]) {
            const rewritten = carrier && rewrites.get(carrier.propertyNames);
            if (rewritten)
                carrier.propertyNames = rewritten;
        }
    }
}
const recordProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "object";
    // For looseRecord with regex patterns, use patternProperties. This correctly represents "only validate keys matching the pattern" semantics and composes well with allOf (intersections)
    const keyType = def.keyType;
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === "loose" && patterns && patterns.size > 0) {
        // Use patternProperties for looseRecord with regex patterns
        const valueSchema = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "patternProperties", "*"],
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
            util_assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
    }
    else {
        // Default behavior: use propertyNames + additionalProperties
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
            json.propertyNames = to_json_schema_processSchema(def.keyType, ctx, {
                ...params,
                path: [...params.path, "propertyNames"],
            });
            let pending = pendingRecords.get(ctx);
            if (!pending) {
                pending = [];
                pendingRecords.set(ctx, pending);
                ctx.deferred.push(() => rewriteKeyNames(ctx));
            }
            pending.push(schema);
        }
        json.additionalProperties = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
    // Add required for keys with discrete values (enum, literal, etc.)
    const keyValues = keyType._zod.values;
    // Every key shares one value schema, so an optional-in value makes the whole key set omittable on input. Output keeps them: the exhaustive branch assigns every key, even one whose value came back undefined.
    const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
            json.required = validKeyValues.map(String);
        }
    }
};
const nullableProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const inner = to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
    }
    else {
        json.anyOf = [inner, { type: "null" }];
    }
};
const nonoptionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
/** Round-trips a default value through JSON so the emitted schema is guaranteed to be valid JSON.
 * A BigInt has no reliable encoding, so it goes through `unrepresentable` like any other
 * unrepresentable value. Returns a sentinel when the caller must not write a default of its own. */
const UNREPRESENTABLE_DEFAULT = Symbol();
function serializeDefaultValue(value, schema, ctx, json, params) {
    let unrepresentable = false;
    const serialized = JSON.stringify(value, (_, val) => {
        if (typeof val !== "bigint")
            return val;
        unrepresentable = true;
        return null;
    });
    if (!unrepresentable)
        return JSON.parse(serialized);
    handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
    return UNREPRESENTABLE_DEFAULT;
}
const defaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
};
const prefaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    if (ctx.io !== "input")
        return;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
};
const catchProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    let catchValue;
    try {
        catchValue = def.catchValue(undefined);
    }
    catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
    }
    json.default = catchValue;
};
const pipeProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    const inIsTransform = def.in._zod.traits.has("$ZodTransform");
    const innerType = ctx.io === "input" ? (inIsTransform ? def.out : def.in) : def.out;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
const readonlyProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    json.readOnly = true;
};
const promiseProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const optionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const lazyProcessor = (schema, ctx, _json, params) => {
    const innerType = schema._zod.innerType;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
// ==================== ALL PROCESSORS ====================
const allProcessors = {
    string: stringProcessor,
    number: numberProcessor,
    boolean: booleanProcessor,
    bigint: bigintProcessor,
    symbol: symbolProcessor,
    null: nullProcessor,
    undefined: undefinedProcessor,
    void: voidProcessor,
    never: neverProcessor,
    any: anyProcessor,
    unknown: unknownProcessor,
    date: dateProcessor,
    enum: enumProcessor,
    literal: literalProcessor,
    nan: nanProcessor,
    template_literal: templateLiteralProcessor,
    file: fileProcessor,
    success: successProcessor,
    custom: customProcessor,
    function: functionProcessor,
    transform: transformProcessor,
    map: mapProcessor,
    set: setProcessor,
    array: arrayProcessor,
    object: objectProcessor,
    union: unionProcessor,
    intersection: intersectionProcessor,
    tuple: tupleProcessor,
    record: recordProcessor,
    nullable: nullableProcessor,
    nonoptional: nonoptionalProcessor,
    default: defaultProcessor,
    prefault: prefaultProcessor,
    catch: catchProcessor,
    pipe: pipeProcessor,
    readonly: readonlyProcessor,
    promise: promiseProcessor,
    optional: optionalProcessor,
    lazy: lazyProcessor,
};
function toJSONSchema(input, params) {
    if ("_idmap" in input) {
        // Registry case
        const registry = input;
        const ctx = initializeContext({ ...params, processors: allProcessors });
        const defs = {};
        // First pass: process all schemas to build the seen map
        for (const entry of registry._idmap.entries()) {
            const [_, schema] = entry;
            processSchema(schema, ctx);
        }
        const schemas = {};
        const external = {
            registry,
            uri: params?.uri,
            defs,
        };
        // Update the context with external configuration
        ctx.external = external;
        // Second pass: emit each schema
        for (const entry of registry._idmap.entries()) {
            const [key, schema] = entry;
            extractDefs(ctx, schema);
            assignProp(schemas, key, finalize(ctx, schema));
        }
        if (Object.keys(defs).length > 0) {
            const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
            schemas.__shared = {
                [defsSegment]: defs,
            };
        }
        return { schemas };
    }
    // Single schema case
    const ctx = initializeContext({ ...params, processors: allProcessors });
    processSchema(input, ctx);
    extractDefs(ctx, input);
    return finalize(ctx, input);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/locales/en.js

const error = () => {
    const Sizable = {
        string: { unit: "characters", verb: "to have" },
        file: { unit: "bytes", verb: "to have" },
        array: { unit: "items", verb: "to have" },
        set: { unit: "items", verb: "to have" },
        map: { unit: "entries", verb: "to have" },
    };
    function getSizing(origin) {
        return Sizable[origin] ?? null;
    }
    const FormatDictionary = {
        regex: "input",
        email: "email address",
        url: "URL",
        emoji: "emoji",
        uuid: "UUID",
        uuidv4: "UUIDv4",
        uuidv6: "UUIDv6",
        nanoid: "nanoid",
        guid: "GUID",
        cuid: "cuid",
        cuid2: "cuid2",
        ulid: "ULID",
        xid: "XID",
        ksuid: "KSUID",
        datetime: "ISO datetime",
        date: "ISO date",
        time: "ISO time",
        duration: "ISO duration",
        ipv4: "IPv4 address",
        ipv6: "IPv6 address",
        mac: "MAC address",
        cidrv4: "IPv4 range",
        cidrv6: "IPv6 range",
        base64: "base64-encoded string",
        base64url: "base64url-encoded string",
        json_string: "JSON string",
        e164: "E.164 number",
        currency_code: "currency code",
        credit_card: "credit card number",
        iban: "IBAN",
        jwt: "JWT",
        template_literal: "input",
    };
    // type names: missing keys = do not translate (use raw value via ?? fallback)
    const TypeDictionary = {
        // Compatibility: "nan" -> "NaN" for display
        nan: "NaN",
        // All other type names omitted - they fall back to raw values via ?? operator
    };
    function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
            return String(input);
        }
        return TypeDictionary[type] ?? type;
    }
    return (issue) => {
        switch (issue.code) {
            case "invalid_type": {
                const expected = getTypeName(issue.expected);
                const receivedType = parsedType(issue.input);
                const received = getTypeName(receivedType, issue.input);
                return `Invalid input: expected ${expected}, received ${received}`;
            }
            case "invalid_value":
                if (issue.values.length === 1)
                    return `Invalid input: expected ${stringifyPrimitive(issue.values[0])}`;
                return `Invalid option: expected one of ${joinValues(issue.values, "|")}`;
            case "too_big": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? "<=" : "<";
                const sizing = getSizing(issue.origin);
                if (sizing)
                    return `Too big: expected ${issue.origin ?? "value"} to have ${adj}${issue.maximum.toString()} ${sizing.unit ?? "elements"}`;
                return `Too big: expected ${issue.origin ?? "value"} to be ${adj}${issue.maximum.toString()}`;
            }
            case "too_small": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? ">=" : ">";
                const sizing = getSizing(issue.origin);
                if (sizing) {
                    return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum.toString()} ${sizing.unit}`;
                }
                return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum.toString()}`;
            }
            case "invalid_format": {
                const _issue = issue;
                if (_issue.format === "starts_with") {
                    return `Invalid string: must start with "${_issue.prefix}"`;
                }
                if (_issue.format === "ends_with")
                    return `Invalid string: must end with "${_issue.suffix}"`;
                if (_issue.format === "includes")
                    return `Invalid string: must include "${_issue.includes}"`;
                if (_issue.format === "regex")
                    return `Invalid string: must match pattern ${_issue.pattern}`;
                return `Invalid ${FormatDictionary[_issue.format] ?? issue.format}`;
            }
            case "not_multiple_of":
                return `Invalid number: must be a multiple of ${issue.divisor}`;
            case "unrecognized_keys":
                return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${joinValues(issue.keys, ", ")}`;
            case "invalid_key":
                return `Invalid key in ${issue.origin}`;
            case "invalid_union":
                if (issue.options && Array.isArray(issue.options) && issue.options.length > 0) {
                    const opts = issue.options.map((o) => `'${o}'`).join(" | ");
                    return `Invalid discriminator value. Expected ${opts}`;
                }
                if (issue.inclusive === false) {
                    return "Invalid input: more than one option matched";
                }
                return "Invalid input";
            case "invalid_element":
                return `Invalid value in ${issue.origin}`;
            default:
                return `Invalid input`;
        }
    };
};
/* harmony default export */ function en() {
    return {
        localeError: error(),
    };
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/errors.js


/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer);
const $ZodRealError = $constructor("$ZodError", initializer, undefined, {
    Parent: Error,
});
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}
function treeifyError(error, mapper = (issue) => issue.message) {
    const result = { errors: [] };
    const processError = (error, path = []) => {
        var _a;
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                // regular union error
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    result.errors.push(mapper(issue));
                    continue;
                }
                let curr = result;
                let i = 0;
                while (i < fullpath.length) {
                    const el = fullpath[i];
                    const terminal = i === fullpath.length - 1;
                    if (typeof el === "string") {
                        curr.properties ?? (curr.properties = {});
                        // el may collide with an inherited property name ("__proto__",
                        // "constructor", ...); ??= reads the prototype so the node is never
                        // created and curr.errors.push throws. Guard with hasOwnProperty and
                        // create the node with defineProperty so "__proto__" becomes a real
                        // own key rather than invoking the prototype setter.
                        if (!Object.prototype.hasOwnProperty.call(curr.properties, el)) {
                            Object.defineProperty(curr.properties, el, {
                                value: { errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        curr = curr.properties[el];
                    }
                    else {
                        curr.items ?? (curr.items = []);
                        (_a = curr.items)[el] ?? (_a[el] = { errors: [] });
                        curr = curr.items[el];
                    }
                    if (terminal) {
                        curr.errors.push(mapper(issue));
                    }
                    i++;
                }
            }
        }
    };
    processError(error);
    return result;
}
/** Format a ZodError as a human-readable string in the following form.
 *
 * From
 *
 * ```ts
 * ZodError {
 *   issues: [
 *     {
 *       expected: 'string',
 *       code: 'invalid_type',
 *       path: [ 'username' ],
 *       message: 'Invalid input: expected string'
 *     },
 *     {
 *       expected: 'number',
 *       code: 'invalid_type',
 *       path: [ 'favoriteNumbers', 1 ],
 *       message: 'Invalid input: expected number'
 *     }
 *   ];
 * }
 * ```
 *
 * to
 *
 * ```
 * username
 *   ✖ Expected number, received string at "username
 * favoriteNumbers[0]
 *   ✖ Invalid input: expected number
 * ```
 */
function toDotPath(_path) {
    const segs = [];
    const path = _path.map((seg) => (typeof seg === "object" ? seg.key : seg));
    for (const seg of path) {
        if (typeof seg === "number")
            segs.push(`[${seg}]`);
        else if (typeof seg === "symbol")
            segs.push(`[${JSON.stringify(String(seg))}]`);
        else if (/[^\w$]/.test(seg))
            segs.push(`[${JSON.stringify(seg)}]`);
        else {
            if (segs.length)
                segs.push(".");
            segs.push(seg);
        }
    }
    return segs.join("");
}
function prettifyError(error) {
    const lines = [];
    // sort by path length
    const issues = [...error.issues].sort((a, b) => (a.path ?? []).length - (b.path ?? []).length);
    // Process each issue
    for (const issue of issues) {
        lines.push(`✖ ${issue.message}`);
        if (issue.path?.length)
            lines.push(`  → at ${toDotPath(issue.path)}`);
    }
    // Convert Map to formatted string
    return lines.join("\n");
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/parse.js



// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parse = /* @__PURE__*/ _parse($ZodRealError);
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parseAsync = /* @__PURE__*/ _parseAsync($ZodRealError);
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParse = /* @__PURE__*/ _safeParse($ZodRealError);
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParseAsync = /* @__PURE__*/ _safeParseAsync($ZodRealError);
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
const COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const parse_validateAsync = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const encode = /* @__PURE__*/ _encode($ZodRealError);
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decode = /* @__PURE__*/ _decode($ZodRealError);
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const encodeAsync = /* @__PURE__*/ _encodeAsync($ZodRealError);
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decodeAsync = /* @__PURE__*/ _decodeAsync($ZodRealError);
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const safeEncode = /* @__PURE__*/ _safeEncode($ZodRealError);
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const safeDecode = /* @__PURE__*/ _safeDecode($ZodRealError);
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const safeEncodeAsync = /* @__PURE__*/ _safeEncodeAsync($ZodRealError);
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};
const safeDecodeAsync = /* @__PURE__*/ _safeDecodeAsync($ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/errors.js



/* Prototypes that already carry the lazy helper methods. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
/* Helper methods live as non-enumerable lazy getters on the shared
 * prototype instead of own properties on every instance. On first
 * access the getter allocates the per-instance closure and caches it
 * as a non-enumerable own property, so detached usage still works and
 * the allocation only happens for methods actually touched. */
function _lazyMethod(proto, key, make) {
    Object.defineProperty(proto, key, {
        configurable: true,
        enumerable: false,
        get() {
            const value = make(this);
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
            return value;
        },
        set(value) {
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
        },
    });
}
const errors_initializer = (inst, issues) => {
    $ZodError.init(inst, issues);
    inst.name = "ZodError";
    const proto = Object.getPrototypeOf(inst);
    if (_installedErrorProtos.has(proto))
        return;
    _installedErrorProtos.add(proto);
    _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
    _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
    _lazyMethod(proto, "addIssue", (self) => (issue) => {
        self.issues.push(issue);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    _lazyMethod(proto, "addIssues", (self) => (issues) => {
        self.issues.push(...issues);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
            return this.issues.length === 0;
        },
    });
};
const ZodError = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodError", errors_initializer)));
const ZodRealError = /*@__PURE__*/ $constructor("ZodError", errors_initializer, undefined, {
    Parent: Error,
});
// /** @deprecated Use `z.core.$ZodErrorMapCtx` instead. */
// export type ErrorMapCtx = core.$ZodErrorMapCtx;

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/parse.js


const classic_parse_parse = /* @__PURE__ */ _parse(ZodRealError);
const classic_parse_parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
const parse_safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
const parse_safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);

// Codec functions
const parse_encode = /* @__PURE__ */ _encode(ZodRealError);
const parse_decode = /* @__PURE__ */ _decode(ZodRealError);
const parse_encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
const parse_decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
const parse_safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
const parse_safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
const parse_safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
const parse_safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/schemas.js








// Register English as the default locale on first ZodType construction. Hooked into the `ZodType` `$constructor` (rather than a top-level `config(en())` in `external.ts`) so bundlers honoring `sideEffects: false` can't tree-shake it out — see #5953, #5725. An explicit `z.config(z.locales.xx())` call wins regardless of order, since this only sets the default when none is present.
function _ensureDefaultLocale() {
    if (!globalConfig.localeError)
        config(en());
}
// the default memoizer is read by the core container init, which runs before `ZodType.init`, so each container calls this first
function _ensureDefaultMemoizer() {
    if (!globalConfig.memoizer)
        config({ memoizer: memoizer() });
}
const ZodType = /*@__PURE__*/ $constructor("ZodType", (inst, def) => {
    _ensureDefaultLocale();
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
    return inst;
}, {
    check(...chks) {
        const def = this.def;
        return this.clone(mergeDefs(def, {
            checks: [
                ...(def.checks ?? []),
                ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }), { parent: true });
    },
    with(...chks) {
        return this.check(...chks);
    },
    clone(def, params) {
        return clone(this, def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    refine(check, params) {
        return this.check(refine(check, params));
    },
    superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
    },
    overwrite(fn) {
        return this.check(_overwrite(fn));
    },
    optional() {
        return optional(this);
    },
    exactOptional() {
        return exactOptional(this);
    },
    nullable() {
        return nullable(this);
    },
    nullish() {
        return optional(nullable(this));
    },
    nonoptional(params) {
        return nonoptional(this, params);
    },
    array() {
        return array(this);
    },
    or(arg) {
        return union([this, arg]);
    },
    and(arg) {
        return intersection(this, arg);
    },
    transform(tx) {
        return pipe(this, transform(tx));
    },
    default(d) {
        return schemas_default(this, d);
    },
    prefault(d) {
        return prefault(this, d);
    },
    catch(params) {
        return schemas_catch(this, params);
    },
    pipe(target) {
        return pipe(this, target);
    },
    readonly() {
        return readonly(this);
    },
    describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
    },
    meta(...args) {
        // overloaded: meta() returns the registered metadata, meta(data) returns a clone with `data` registered. The mapped type picks up the second overload, so we accept variadic any-args and return `any` to satisfy both at runtime.
        if (args.length === 0)
            return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
    },
    isOptional() {
        return this.safeParse(undefined).success;
    },
    isNullable() {
        return this.safeParse(null).success;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
    // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
    get "~standard"() {
        return hide(this, "~standard", {
            ...standardProps(this),
            jsonSchema: {
                input: createStandardJSONSchemaMethod(this, "input"),
                output: createStandardJSONSchemaMethod(this, "output"),
            },
        });
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
    parse: function _parse(data, params) {
        return classic_parse_parse(this, data, params, { callee: _parse });
    },
    parseAsync: async function _parseAsync(data, params) {
        return await classic_parse_parseAsync(this, data, params, { callee: _parseAsync });
    },
    safeParse(data, params) {
        return parse_safeParse(this, data, params);
    },
    async safeParseAsync(data, params) {
        return parse_safeParseAsync(this, data, params);
    },
    // `spa` is an alias: same function object as `safeParseAsync`, as before.
    get spa() {
        return this?.safeParseAsync;
    },
    set spa(value) {
        own(this, "spa", value);
    },
    validate(data, params) {
        return validate(this, data, params);
    },
    validateAsync(data, params) {
        return parse_validateAsync(this, data, params);
    },
    encode: function _encode(data, params) {
        return parse_encode(this, data, params, { callee: _encode });
    },
    decode: function _decode(data, params) {
        return parse_decode(this, data, params, { callee: _decode });
    },
    encodeAsync: async function _encodeAsync(data, params) {
        return await parse_encodeAsync(this, data, params, { callee: _encodeAsync });
    },
    decodeAsync: async function _decodeAsync(data, params) {
        return await parse_decodeAsync(this, data, params, { callee: _decodeAsync });
    },
    safeEncode(data, params) {
        return parse_safeEncode(this, data, params);
    },
    safeDecode(data, params) {
        return parse_safeDecode(this, data, params);
    },
    async safeEncodeAsync(data, params) {
        return parse_safeEncodeAsync(this, data, params);
    },
    async safeDecodeAsync(data, params) {
        return parse_safeDecodeAsync(this, data, params);
    },
    toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
    },
    // Reads through to the registry on every access, so it must not cache.
    get description() {
        return globalRegistry.get(this)?.description;
    },
    // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
    get _def() {
        return this._zod.def;
    },
});
/** @internal */
const _ZodString = /*@__PURE__*/ $constructor("_ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null,
}, {
    regex(...args) {
        return this.check(_regex(...args));
    },
    includes(...args) {
        return this.check(_includes(...args));
    },
    startsWith(...args) {
        return this.check(_startsWith(...args));
    },
    endsWith(...args) {
        return this.check(_endsWith(...args));
    },
    min(...args) {
        return this.check(_minLength(...args));
    },
    max(...args) {
        return this.check(_maxLength(...args));
    },
    length(...args) {
        return this.check(_length(...args));
    },
    nonempty(...args) {
        return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
        return this.check(_lowercase(params));
    },
    uppercase(params) {
        return this.check(_uppercase(params));
    },
    trim() {
        return this.check(_trim());
    },
    normalize(...args) {
        return this.check(_normalize(...args));
    },
    toLowerCase() {
        return this.check(_toLowerCase());
    },
    toUpperCase() {
        return this.check(_toUpperCase());
    },
    slugify() {
        return this.check(_slugify());
    },
}));
const ZodString = /*@__PURE__*/ $constructor("ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    _ZodString.init(inst, def);
}, {
    email(params) {
        return this.check(_email(ZodEmail, params));
    },
    url(params) {
        return this.check(_url(ZodURL, params));
    },
    jwt(params) {
        return this.check(_jwt(ZodJWT, params));
    },
    emoji(params) {
        return this.check(api_emoji(ZodEmoji, params));
    },
    guid(params) {
        return this.check(_guid(ZodGUID, params));
    },
    uuid(params) {
        return this.check(_uuid(ZodUUID, params));
    },
    uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
    },
    uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
    },
    uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
    },
    nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
    },
    cuid(params) {
        return this.check(_cuid(ZodCUID, params));
    },
    cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
    },
    ulid(params) {
        return this.check(_ulid(ZodULID, params));
    },
    base64(params) {
        return this.check(_base64(ZodBase64, params));
    },
    base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
    },
    xid(params) {
        return this.check(_xid(ZodXID, params));
    },
    ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
    },
    ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
    },
    ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
    },
    cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
    },
    cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
    },
    e164(params) {
        return this.check(_e164(ZodE164, params));
    },
    datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
    },
    date(params) {
        return this.check(_isoDate(schemas_ZodISODate, params));
    },
    time(params) {
        return this.check(_isoTime(schemas_ZodISOTime, params));
    },
    duration(params) {
        return this.check(_isoDuration(schemas_ZodISODuration, params));
    },
});
function schemas_string(params) {
    return _string(ZodString, params);
}
const ZodStringFormat = /*@__PURE__*/ $constructor("ZodStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    _ZodString.init(inst, def);
});
const ZodISODateTime = /*@__PURE__*/ $constructor("ZodISODateTime", (inst, def) => {
    $ZodISODateTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISODate = /*@__PURE__*/ $constructor("ZodISODate", (inst, def) => {
    $ZodISODate.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISOTime = /*@__PURE__*/ $constructor("ZodISOTime", (inst, def) => {
    $ZodISOTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISODuration = /*@__PURE__*/ $constructor("ZodISODuration", (inst, def) => {
    $ZodISODuration.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmail = /*@__PURE__*/ $constructor("ZodEmail", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmail.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_email(params) {
    return core._email(ZodEmail, params);
}
const ZodGUID = /*@__PURE__*/ $constructor("ZodGUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodGUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_guid(params) {
    return core._guid(ZodGUID, params);
}
const ZodUUID = /*@__PURE__*/ $constructor("ZodUUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodUUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_uuid(params) {
    return core._uuid(ZodUUID, params);
}
function uuidv4(params) {
    return core._uuidv4(ZodUUID, params);
}
// ZodUUIDv6
function uuidv6(params) {
    return core._uuidv6(ZodUUID, params);
}
// ZodUUIDv7
function uuidv7(params) {
    return core._uuidv7(ZodUUID, params);
}
const ZodURL = /*@__PURE__*/ $constructor("ZodURL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodURL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function url(params) {
    return _url(ZodURL, params);
}
function httpUrl(params) {
    return core._url(ZodURL, {
        protocol: regexes.httpProtocol,
        hostname: regexes.domain,
        ...util.normalizeParams(params),
    });
}
const ZodEmoji = /*@__PURE__*/ $constructor("ZodEmoji", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmoji.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_emoji(params) {
    return core._emoji(ZodEmoji, params);
}
const ZodNanoID = /*@__PURE__*/ $constructor("ZodNanoID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodNanoID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_nanoid(params) {
    return core._nanoid(ZodNanoID, params);
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodCUID = /*@__PURE__*/ $constructor("ZodCUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
/**
 * Validates a CUID v1 string.
 *
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2 | `z.cuid2()`} instead.
 * See https://github.com/paralleldrive/cuid.
 */
function schemas_cuid(params) {
    return core._cuid(ZodCUID, params);
}
const ZodCUID2 = /*@__PURE__*/ $constructor("ZodCUID2", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID2.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cuid2(params) {
    return core._cuid2(ZodCUID2, params);
}
const ZodULID = /*@__PURE__*/ $constructor("ZodULID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodULID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ulid(params) {
    return core._ulid(ZodULID, params);
}
const ZodXID = /*@__PURE__*/ $constructor("ZodXID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodXID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_xid(params) {
    return core._xid(ZodXID, params);
}
const ZodKSUID = /*@__PURE__*/ $constructor("ZodKSUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodKSUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ksuid(params) {
    return core._ksuid(ZodKSUID, params);
}
const ZodIPv4 = /*@__PURE__*/ $constructor("ZodIPv4", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv4(params) {
    return core._ipv4(ZodIPv4, params);
}
const ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMAC", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodMAC.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_mac(params) {
    return core._mac(ZodMAC, params);
}
const ZodIPv6 = /*@__PURE__*/ $constructor("ZodIPv6", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv6(params) {
    return core._ipv6(ZodIPv6, params);
}
const ZodCIDRv4 = /*@__PURE__*/ $constructor("ZodCIDRv4", (inst, def) => {
    $ZodCIDRv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv4(params) {
    return core._cidrv4(ZodCIDRv4, params);
}
const ZodCIDRv6 = /*@__PURE__*/ $constructor("ZodCIDRv6", (inst, def) => {
    $ZodCIDRv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv6(params) {
    return core._cidrv6(ZodCIDRv6, params);
}
const ZodBase64 = /*@__PURE__*/ $constructor("ZodBase64", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64(params) {
    return core._base64(ZodBase64, params);
}
const ZodBase64URL = /*@__PURE__*/ $constructor("ZodBase64URL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64URL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64url(params) {
    return core._base64url(ZodBase64URL, params);
}
const ZodE164 = /*@__PURE__*/ $constructor("ZodE164", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodE164.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_e164(params) {
    return core._e164(ZodE164, params);
}
const ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCreditCard", (inst, def) => {
    core.$ZodCreditCard.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_creditCard(params) {
    return core._creditCard(ZodCreditCard, params);
}
const ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodIBAN", (inst, def) => {
    core.$ZodIBAN.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_iban(params) {
    return core._iban(ZodIBAN, params);
}
const ZodJWT = /*@__PURE__*/ $constructor("ZodJWT", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodJWT.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function jwt(params) {
    return core._jwt(ZodJWT, params);
}
const ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCustomStringFormat", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodCustomStringFormat.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function stringFormat(format, fnOrRegex, _params = {}) {
    return core._stringFormat(ZodCustomStringFormat, format, fnOrRegex, _params);
}
function schemas_hostname(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hostname", regexes.hostname, _params);
}
function schemas_hex(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hex", regexes.hex, _params);
}
function schemas_currencyCode(_params) {
    return core._stringFormat(ZodCustomStringFormat, "currency_code", regexes.currencyCode, _params);
}
function hash(alg, params) {
    const enc = params?.enc ?? "hex";
    const format = `${alg}_${enc}`;
    const regex = core.regexes[format];
    if (!regex)
        throw new Error(`Unrecognized hash format: ${format}`);
    return core._stringFormat(ZodCustomStringFormat, format, regex, params);
}
const ZodNumber = /*@__PURE__*/ $constructor("ZodNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => {
        const { minimum, exclusiveMinimum } = aggregateChecks(inst);
        return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
        const { maximum, exclusiveMaximum } = aggregateChecks(inst);
        return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
        const { isInt, multipleOf } = aggregateChecks(inst);
        return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    int(params) {
        return this.check(schemas_int(params));
    },
    safe(params) {
        return this.check(schemas_int(params));
    },
    positive(params) {
        return this.check(_gt(0, params));
    },
    nonnegative(params) {
        return this.check(_gte(0, params));
    },
    negative(params) {
        return this.check(_lt(0, params));
    },
    nonpositive(params) {
        return this.check(_lte(0, params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
    step(value, params) {
        return this.check(_multipleOf(value, params));
    },
    finite() {
        return this;
    },
}));
function schemas_number(params) {
    return _number(ZodNumber, params);
}
const ZodNumberFormat = /*@__PURE__*/ $constructor("ZodNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodNumber.init(inst, def);
});
function schemas_int(params) {
    return _int(ZodNumberFormat, params);
}
function float32(params) {
    return core._float32(ZodNumberFormat, params);
}
function float64(params) {
    return core._float64(ZodNumberFormat, params);
}
function int32(params) {
    return core._int32(ZodNumberFormat, params);
}
function uint32(params) {
    return core._uint32(ZodNumberFormat, params);
}
const ZodBoolean = /*@__PURE__*/ $constructor("ZodBoolean", (inst, def) => {
    $ZodBoolean.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json, params);
});
function schemas_boolean(params) {
    return _boolean(ZodBoolean, params);
}
const ZodBigInt = /*@__PURE__*/ $constructor("ZodBigInt", (inst, def) => {
    $ZodBigInt.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => bigintProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => aggregateChecks(inst).minimum ?? null,
    maxValue: (inst) => aggregateChecks(inst).maximum ?? null,
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    positive(params) {
        return this.check(_gt(BigInt(0), params));
    },
    negative(params) {
        return this.check(_lt(BigInt(0), params));
    },
    nonpositive(params) {
        return this.check(_lte(BigInt(0), params));
    },
    nonnegative(params) {
        return this.check(_gte(BigInt(0), params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
}));
function schemas_bigint(params) {
    return core._bigint(ZodBigInt, params);
}
const ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodBigIntFormat", (inst, def) => {
    core.$ZodBigIntFormat.init(inst, def);
    ZodBigInt.init(inst, def);
})));
function int64(params) {
    return core._int64(ZodBigIntFormat, params);
}
function uint64(params) {
    return core._uint64(ZodBigIntFormat, params);
}
const ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSymbol", (inst, def) => {
    core.$ZodSymbol.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.symbolProcessor(inst, ctx, json, params);
})));
function symbol(params) {
    return core._symbol(ZodSymbol, params);
}
const ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodUndefined", (inst, def) => {
    core.$ZodUndefined.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.undefinedProcessor(inst, ctx, json, params);
})));
function schemas_undefined(params) {
    return core._undefined(ZodUndefined, params);
}

const ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNull", (inst, def) => {
    core.$ZodNull.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nullProcessor(inst, ctx, json, params);
})));
function schemas_null(params) {
    return core._null(ZodNull, params);
}

const ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodAny", (inst, def) => {
    core.$ZodAny.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.anyProcessor(inst, ctx, json, params);
})));
function any() {
    return core._any(ZodAny);
}
const ZodUnknown = /*@__PURE__*/ $constructor("ZodUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor(inst, ctx, json, params);
});
function unknown() {
    return _unknown(ZodUnknown);
}
const ZodNever = /*@__PURE__*/ $constructor("ZodNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json, params);
});
function never(params) {
    return _never(ZodNever, params);
}
const ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodVoid", (inst, def) => {
    core.$ZodVoid.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.voidProcessor(inst, ctx, json, params);
})));
function schemas_void(params) {
    return core._void(ZodVoid, params);
}

const ZodDate = /*@__PURE__*/ $constructor("ZodDate", (inst, def) => {
    $ZodDate.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => dateProcessor(inst, ctx, json, params);
    inst.min = (value, params) => inst.check(_gte(value, params));
    inst.max = (value, params) => inst.check(_lte(value, params));
}, 
/*@__PURE__*/ derived({
    minDate: (inst) => {
        const { minimum } = aggregateChecks(inst);
        return minimum ? new Date(minimum) : null;
    },
    maxDate: (inst) => {
        const { maximum } = aggregateChecks(inst);
        return maximum ? new Date(maximum) : null;
    },
}, {}));
function schemas_date(params) {
    return core._date(ZodDate, params);
}
const ZodArray = /*@__PURE__*/ $constructor("ZodArray", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodArray.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
    inst.element = def.element;
}, {
    min(n, params) {
        return this.check(_minLength(n, params));
    },
    nonempty(params) {
        return this.check(_minLength(1, params));
    },
    max(n, params) {
        return this.check(_maxLength(n, params));
    },
    length(n, params) {
        return this.check(_length(n, params));
    },
    unwrap() {
        return this.element;
    },
});
function array(element, params) {
    return _array(ZodArray, element, params);
}
// .keyof
function keyof(schema) {
    const shape = schema._zod.def.shape;
    return schemas_enum(Object.keys(shape));
}
const ZodObject = /*@__PURE__*/ $constructor("ZodObject", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodObjectJIT.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
    keyof() {
        return schemas_enum(Object.keys(this._zod.def.shape));
    },
    catchall(catchall) {
        // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
        return this.clone(mergeDefs(this._zod.def, { catchall: catchall }));
    },
    passthrough() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    loose() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    strict() {
        return this.clone(mergeDefs(this._zod.def, { catchall: never() }));
    },
    strip() {
        return this.clone(mergeDefs(this._zod.def, { catchall: undefined }));
    },
    extend(incoming) {
        return extend(this, incoming);
    },
    safeExtend(incoming) {
        return safeExtend(this, incoming);
    },
    merge(other) {
        return merge(this, other);
    },
    pick(mask) {
        return pick(this, mask);
    },
    omit(mask) {
        return omit(this, mask);
    },
    partial(...args) {
        return partial(ZodOptional, this, args[0]);
    },
    exactPartial(...args) {
        return partial(ZodExactOptional, this, args[0], "exactPartial");
    },
    required(...args) {
        return required(ZodNonOptional, this, args[0]);
    },
});
function object(shape, params) {
    const def = {
        type: "object",
        shape: shape ?? {},
        ...normalizeParams(params),
    };
    return new ZodObject(def);
}
// strictObject
function strictObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: never(),
        ...util.normalizeParams(params),
    });
}
// looseObject
function looseObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: unknown(),
        ...util.normalizeParams(params),
    });
}
const ZodUnion = /*@__PURE__*/ $constructor("ZodUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
});
function union(options, params) {
    return new ZodUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodXor", (inst, def) => {
    ZodUnion.init(inst, def);
    core.$ZodXor.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
})));
/** Creates an exclusive union (XOR) where exactly one option must match.
 * Unlike regular unions that succeed when any option matches, xor fails if
 * zero or more than one option matches the input. */
function xor(options, params) {
    return new ZodXor({
        type: "union",
        options: options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
const ZodDiscriminatedUnion = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodDiscriminatedUnion", (inst, def) => {
    ZodUnion.init(inst, def);
    core.$ZodDiscriminatedUnion.init(inst, def);
})));
function discriminatedUnion(discriminator, options, params) {
    // const [options, params] = args;
    return new ZodDiscriminatedUnion({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
const ZodIntersection = /*@__PURE__*/ $constructor("ZodIntersection", (inst, def) => {
    $ZodIntersection.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
    return new ZodIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodTuple = /*@__PURE__*/ $constructor("ZodTuple", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTuple.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => tupleProcessor(inst, ctx, json, params);
}, {
    rest(rest) {
        return this.clone({
            ...this._zod.def,
            rest: rest,
        });
    },
    partial() {
        const def = this._zod.def;
        // a refinement was authored against the full arity; partialing would run it on a shorter array
        if (def.checks?.length)
            throw new Error(".partial() cannot be used on tuple schemas containing refinements");
        return this.clone({
            ...def,
            items: def.items.map((item) => new ZodOptional({ type: "optional", innerType: item })),
        });
    },
});
function tuple(items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof core.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new ZodTuple({
        type: "tuple",
        items: items,
        rest,
        ...util.normalizeParams(params),
    });
}
const ZodRecord = /*@__PURE__*/ $constructor("ZodRecord", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodRecord.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
});
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodRecord({
            type: "record",
            keyType: schemas_string(),
            valueType: keyType,
            ...normalizeParams(valueType),
        });
    }
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
    });
}
// type alksjf = core.output<core.$ZodRecordKey>;
function partialRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
        partial: true,
    });
}
function looseRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        mode: "loose",
        ...util.normalizeParams(params),
    });
}
const ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMap", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodMap.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.mapProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function map(keyType, valueType, params) {
    return new ZodMap({
        type: "map",
        keyType: keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSet", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodSet.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.setProcessor(inst, ctx, json, params);
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function set(valueType, params) {
    return new ZodSet({
        type: "set",
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodEnum = /*@__PURE__*/ $constructor("ZodEnum", (inst, def) => {
    $ZodEnum.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json, params);
    inst.enum = def.entries;
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
    const keys = new Set(Object.keys(def.entries));
    inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
            if (keys.has(value)) {
                newEntries[value] = def.entries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
    inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
            if (keys.has(value)) {
                delete newEntries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
});
function schemas_enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodEnum({
        type: "enum",
        entries,
        ...normalizeParams(params),
    });
}

/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function nativeEnum(entries, params) {
    return new ZodEnum({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
const ZodLiteral = /*@__PURE__*/ $constructor("ZodLiteral", (inst, def) => {
    $ZodLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => literalProcessor(inst, ctx, json, params);
    inst.values = new Set(def.values);
    Object.defineProperty(inst, "value", {
        get() {
            if (def.values.length > 1) {
                throw new Error("This schema contains multiple valid literal values. Use `.values` instead.");
            }
            return def.values[0];
        },
    });
});
function literal(value, params) {
    return new ZodLiteral({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...normalizeParams(params),
    });
}
const ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFile", (inst, def) => {
    core.$ZodFile.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.fileProcessor(inst, ctx, json, params);
    inst.min = (size, params) => inst.check(core._minSize(size, params));
    inst.max = (size, params) => inst.check(core._maxSize(size, params));
    inst.mime = (types, params) => inst.check(core._mime(Array.isArray(types) ? types : [types], params));
})));
function file(params) {
    return core._file(ZodFile, params);
}
const ZodTransform = /*@__PURE__*/ $constructor("ZodTransform", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTransform.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
    inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = inst);
                // _issue.continue ??= true;
                payload.issues.push(util_issue(_issue));
            }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        payload.value = output;
        return payload;
    };
});
function transform(fn) {
    return new ZodTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodOptional = /*@__PURE__*/ $constructor("ZodOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
    return new ZodOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodExactOptional = /*@__PURE__*/ $constructor("ZodExactOptional", (inst, def) => {
    $ZodExactOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
    return new ZodExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodNullable = /*@__PURE__*/ $constructor("ZodNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
    return new ZodNullable({
        type: "nullable",
        innerType: innerType,
    });
}
// nullish
function schemas_nullish(innerType) {
    return optional(nullable(innerType));
}
const ZodDefault = /*@__PURE__*/ $constructor("ZodDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeDefault = inst.unwrap;
});
function schemas_default(innerType, defaultValue) {
    return new ZodDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodPrefault = /*@__PURE__*/ $constructor("ZodPrefault", (inst, def) => {
    $ZodPrefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
    return new ZodPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodNonOptional = /*@__PURE__*/ $constructor("ZodNonOptional", (inst, def) => {
    $ZodNonOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
    return new ZodNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...normalizeParams(params),
    });
}
const ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSuccess", (inst, def) => {
    core.$ZodSuccess.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.successProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function success(innerType) {
    return new ZodSuccess({
        type: "success",
        innerType: innerType,
    });
}
const ZodCatch = /*@__PURE__*/ $constructor("ZodCatch", (inst, def) => {
    $ZodCatch.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeCatch = inst.unwrap;
});
function schemas_catch(innerType, catchValue) {
    return new ZodCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : constantCatch(catchValue)),
    });
}

const ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNaN", (inst, def) => {
    core.$ZodNaN.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nanProcessor(inst, ctx, json, params);
})));
function nan(params) {
    return core._nan(ZodNaN, params);
}
const ZodPipe = /*@__PURE__*/ $constructor("ZodPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
    inst.in = def.in;
    inst.out = def.out;
});
function pipe(in_, out) {
    return new ZodPipe({
        type: "pipe",
        in: in_,
        out: out,
        // ...util.normalizeParams(params),
    });
}
const ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCodec", (inst, def) => {
    ZodPipe.init(inst, def);
    core.$ZodCodec.init(inst, def);
})));
function codec(in_, out, params) {
    return new ZodCodec({
        type: "pipe",
        in: in_,
        out: out,
        transform: params.decode,
        reverseTransform: params.encode,
    });
}
function invertCodec(codec) {
    const def = codec._zod.def;
    return new ZodCodec({
        type: "pipe",
        in: def.out,
        out: def.in,
        transform: def.reverseTransform,
        reverseTransform: def.transform,
    });
}
const ZodPreprocess = /*@__PURE__*/ $constructor("ZodPreprocess", (inst, def) => {
    ZodPipe.init(inst, def);
    $ZodPreprocess.init(inst, def);
});
const ZodReadonly = /*@__PURE__*/ $constructor("ZodReadonly", (inst, def) => {
    $ZodReadonly.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
    return new ZodReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodTemplateLiteral", (inst, def) => {
    core.$ZodTemplateLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.templateLiteralProcessor(inst, ctx, json, params);
})));
function templateLiteral(parts, params) {
    return new ZodTemplateLiteral({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
const ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodLazy", (inst, def) => {
    core.$ZodLazy.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.lazyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.getter();
})));
function lazy(getter) {
    return new ZodLazy({
        type: "lazy",
        getter: getter,
    });
}
const ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodPromise", (inst, def) => {
    core.$ZodPromise.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.promiseProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function promise(innerType) {
    return new ZodPromise({
        type: "promise",
        innerType: innerType,
    });
}
const ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFunction", (inst, def) => {
    core.$ZodFunction.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.functionProcessor(inst, ctx, json, params);
})));
function _function(params) {
    return new ZodFunction({
        type: "function",
        input: Array.isArray(params?.input) ? tuple(params?.input) : (params?.input ?? array(unknown())),
        output: params?.output ?? unknown(),
    });
}

const ZodCustom = /*@__PURE__*/ $constructor("ZodCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
// custom checks
function check(fn) {
    const ch = new core.$ZodCheck({
        check: "custom",
        // ...util.normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
function custom(fn, _params) {
    return core._custom(ZodCustom, fn ?? (() => true), _params);
}
function refine(fn, _params = {}) {
    return _refine(ZodCustom, fn, _params);
}
// superRefine
function superRefine(fn, params) {
    return _superRefine(fn, params);
}
// Re-export describe and meta from core
const schemas_describe = describe;
const schemas_meta = meta;
const ZodInstanceOf = /*@__PURE__*/ $constructor("ZodInstanceOf", (inst, def) => {
    ZodCustom.init(inst, def);
}, {
    properties(shape, params) {
        // asserts in place, so the narrowed output type is truthful without a wrapper
        return this.check(_properties(shape, params));
    },
});
function _instanceof(cls, params = {}) {
    const inst = new ZodInstanceOf({
        type: "custom",
        check: "custom",
        fn: (data) => data instanceof cls,
        abort: true,
        ...util.normalizeParams(params),
    });
    inst._zod.bag.Class = cls;
    // Override check to emit invalid_type instead of custom
    inst._zod.check = (payload) => {
        if (!(payload.value instanceof cls)) {
            payload.issues.push({
                code: "invalid_type",
                expected: cls.name,
                input: payload.value,
                inst,
                path: [...(inst._zod.def.path ?? [])],
            });
        }
    };
    return inst;
}

// stringbool
const stringbool = (...args) => core._stringbool({
    Codec: ZodCodec,
    Boolean: ZodBoolean,
    String: ZodString,
}, ...args);
function json(params) {
    const jsonSchema = lazy(() => {
        return union([schemas_string(params), schemas_number(), schemas_boolean(), schemas_null(), array(jsonSchema), record(schemas_string(), jsonSchema)]);
    });
    return jsonSchema;
}
// preprocess
function preprocess(fn, schema) {
    return new ZodPreprocess({
        type: "pipe",
        in: transform(fn),
        out: schema,
    });
}

;// CONCATENATED MODULE: ./src/util/args.ts
/** Splits a command-line string into arguments the way a POSIX shell would for quotes and escapes (no expansion). */
function splitArgs(text) {
    const out = [];
    let current = '';
    let started = false;
    let quote;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quote) {
            if (c === quote)
                quote = undefined;
            else if (c === '\\' && quote === '"' && i + 1 < text.length)
                current += text[++i];
            else
                current += c;
        }
        else if (c === '"' || c === "'") {
            quote = c;
            started = true;
        }
        else if (c === '\\' && i + 1 < text.length) {
            current += text[++i];
            started = true;
        }
        else if (/\s/.test(c)) {
            if (started)
                out.push(current);
            current = '';
            started = false;
        }
        else {
            current += c;
            started = true;
        }
    }
    if (quote)
        throw new Error(`unterminated ${quote} quote`);
    if (started)
        out.push(current);
    return out;
}

;// CONCATENATED MODULE: ./src/config.ts
/**
 * Every option, parsed once. One zod schema; each field carries its flag, help text and what is
 * expected, so `--help`, the README's reference and every error message come from the same place.
 * Precedence: defaults < `.agent-loop.yml` (or --config FILE) < environment (AGENT_LOOP_<OPTION>) < flags.
 * This is the only module that reads the environment.
 */




const COMMANDS = ['run', 'status', 'cleanup'];
const config_registry = registry();
const RUN = ['run', 'action'];
const ALL = ['run', 'status', 'cleanup', 'action'];
const ACTION = ['action'];
// Raw values arrive as strings (flags, environment) or as YAML scalars: coerce those that are clear.
const toNumber = (v) => (typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : v);
const toBoolean = (v) => {
    if (typeof v !== 'string')
        return v;
    const s = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(s))
        return true;
    if (['false', '0', 'no', 'off', ''].includes(s))
        return false;
    return v;
};
const toUndefinedIfEmpty = (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const config_int = (min) => preprocess(toNumber, schemas_number().int().min(min));
const positive = () => preprocess(toNumber, schemas_number().positive().finite());
const nonNegative = () => preprocess(toNumber, schemas_number().min(0).finite());
const flagSwitch = () => preprocess(toBoolean, schemas_boolean()).default(false);
const config_text = () => preprocess(toUndefinedIfEmpty, schemas_string().trim().min(1).optional());
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const OptionsSchema = object({
    config: schemas_string().min(1).optional().register(config_registry, {
        flag: 'config', arg: 'FILE', commands: ALL, defaultText: '.agent-loop.yml if it exists',
        help: 'YAML file of options (kebab-case keys, same names as the flags).', expected: 'a path to a YAML file',
    }),
    source: schemas_enum(['beads', 'github']).default('beads').register(config_registry, {
        flag: 'source', arg: 'beads|github', commands: RUN,
        help: 'Where issues come from: beads (the bd CLI when on PATH, else the JSONL file) or github (the action).',
        expected: 'one of beads, github',
    }),
    issuesFile: schemas_string().min(1).default('.beads/issues.jsonl').register(config_registry, {
        flag: 'issues-file', arg: 'PATH', commands: RUN,
        help: 'The beads JSONL file, read and rewritten directly when bd is not on PATH.', expected: 'a path',
    }),
    agent: schemas_enum(['claude', 'codex', 'command']).default('claude').register(config_registry, {
        flag: 'agent', arg: 'claude|codex|command', commands: RUN,
        help: 'The coding agent: Claude Code, the Codex CLI, or any command (--agent-command).',
        expected: 'one of claude, codex, command',
    }),
    agentCommand: config_text().register(config_registry, {
        flag: 'agent-command', arg: 'CMD', commands: RUN,
        help: 'Shell command run as the agent with --agent command; it gets the prompt on stdin and in $AGENT_LOOP_PROMPT_FILE, and $AGENT_LOOP_ISSUE_IDS, $AGENT_LOOP_ITERATION.',
        expected: 'a non-empty shell command',
    }),
    agentModel: config_text().register(config_registry, {
        flag: 'agent-model', arg: 'MODEL', commands: RUN, defaultText: "the agent's own default",
        help: 'Model for the claude or codex agent (--model).', expected: 'a model name',
    }),
    agentMaxTurns: config_int(1).optional().register(config_registry, {
        flag: 'agent-max-turns', arg: 'N', commands: RUN, defaultText: "the agent's own limit",
        help: 'Turns one Claude Code invocation may take (--max-turns); reaching it is a max_turns failure.',
        expected: 'a whole number ≥ 1',
    }),
    agentPermissionMode: schemas_enum(['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan']).default('acceptEdits').register(config_registry, {
        flag: 'agent-permission-mode', arg: 'MODE', commands: RUN,
        help: "Claude Code's --permission-mode. bypassPermissions is refused by Claude Code when run as root.",
        expected: 'one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan',
    }),
    agentAllowedTools: config_text().register(config_registry, {
        flag: 'agent-allowed-tools', arg: 'TOOLS', commands: RUN, defaultText: "the agent's own",
        help: 'Tools Claude Code may use without asking, as its --allowedTools takes them: "Bash Edit Write Read".',
        expected: 'a list of tool names',
    }),
    agentSandbox: schemas_enum(['read-only', 'workspace-write', 'danger-full-access']).default('workspace-write').register(config_registry, {
        flag: 'agent-sandbox', arg: 'MODE', commands: RUN,
        help: "Codex's --sandbox for the commands it runs.", expected: 'one of read-only, workspace-write, danger-full-access',
    }),
    agentArgs: config_text().register(config_registry, {
        flag: 'agent-args', arg: 'ARGS', commands: RUN, defaultText: 'none',
        help: 'Extra arguments passed through to claude or codex, split like a shell would ("--foo \'a b\'").',
        expected: 'arguments with balanced quotes',
    }),
    agentSession: schemas_enum(['fresh', 'continue']).default('fresh').register(config_registry, {
        flag: 'agent-session', arg: 'fresh|continue', commands: RUN,
        help: "continue resumes the cycle's previous Claude Code session on its next iteration (a failed resume falls back to a fresh one).",
        expected: 'one of fresh, continue',
    }),
    maxCostUsd: positive().optional().register(config_registry, {
        flag: 'max-cost-usd', arg: 'USD', commands: RUN, defaultText: 'no cap',
        help: 'Halt (haltReason budget) before an iteration would start with the run\'s spend, across slices, at or over USD. Applies to agents that report cost (Claude Code); Codex reports tokens only.',
        expected: 'a number of dollars > 0',
    }),
    testCommand: config_text().register(config_registry, {
        flag: 'test-command', arg: 'CMD', commands: RUN, defaultText: 'auto: npm test, pytest or make test',
        help: 'The test gate, run when the agent says the work is done; exit code 0 means pass.',
        expected: 'a non-empty shell command',
    }),
    batch: flagSwitch().register(config_registry, {
        flag: 'batch', commands: RUN,
        help: 'Put all ready issues into one cycle with one prompt, instead of one issue per cycle.', expected: 'true or false',
    }),
    onSuccess: schemas_enum(['merge', 'branch']).default('merge').register(config_registry, {
        flag: 'on-success', arg: 'merge|branch', commands: RUN,
        help: "In git: merge a finished cycle's branch into the base branch, or leave it on its branch.",
        expected: 'one of merge, branch',
    }),
    plan: config_text().register(config_registry, {
        flag: 'plan', arg: 'FILE', commands: RUN, defaultText: 'none',
        help: 'A plan included in every prompt; with --workflow tdd, the test list (a Markdown checklist) instead of the issue\'s.', expected: 'a path to a readable file',
    }),
    workflow: schemas_enum(['implement', 'tdd']).default('implement').register(config_registry, {
        flag: 'workflow', arg: 'implement|tdd', commands: RUN,
        help: 'implement: the agent works until the tests pass. tdd: red/green/refactor per item of the issue\'s checklist (or --plan), a commit and a git note (refs/notes/agent-loop) per phase.',
        expected: 'one of implement, tdd',
    }),
    junitFile: config_text().register(config_registry, {
        flag: 'junit-file', arg: 'PATH', commands: RUN, defaultText: 'none',
        help: 'With --workflow tdd: the JUnit XML report the test command writes (jest-junit, pytest --junitxml, gotestsum), read for the failing tests\' names and messages; without it they come from the output.',
        expected: 'a path relative to the repository',
    }),
    tddPrompts: config_text().register(config_registry, {
        flag: 'tdd-prompts', arg: 'DIR', commands: RUN, defaultText: 'built in',
        help: 'With --workflow tdd: a directory whose red.md, green.md or refactor.md replace the built-in prompt of that agent ({{issue}}, {{test}}, {{tests}}, {{testCommand}}, {{testFile}}, {{failure}}, {{attempt}}).',
        expected: 'a path to a directory',
    }),
    maxIterations: config_int(1).default(100).register(config_registry, {
        flag: 'max-iterations', arg: 'N', commands: RUN,
        help: 'Agent invocations allowed in the whole run, counted across slices; then the run halts.',
        expected: 'a whole number ≥ 1',
    }),
    sliceIterations: config_int(1).optional().register(config_registry, {
        flag: 'slice-iterations', arg: 'N', commands: RUN, defaultText: 'unbounded',
        help: 'End this invocation after N iterations with status continuing (exit 0); the next run resumes.',
        expected: 'a whole number ≥ 1',
    }),
    sliceMinutes: positive().optional().register(config_registry, {
        flag: 'slice-minutes', arg: 'M', commands: RUN, defaultText: 'unbounded',
        help: 'Start no new iteration after M minutes; end with status continuing (exit 0).',
        expected: 'a number of minutes > 0',
    }),
    iterationDelay: nonNegative().default(10).register(config_registry, {
        flag: 'iteration-delay', arg: 'SECONDS', commands: RUN,
        help: 'Pause after each agent invocation before the completion check.', expected: 'a number of seconds ≥ 0',
    }),
    agentTimeoutMinutes: positive().default(30).register(config_registry, {
        flag: 'agent-timeout-minutes', arg: 'M', commands: RUN,
        help: "Kill the agent's whole process group after M minutes (decimals allowed); also bounds the test gate.",
        expected: 'a number of minutes > 0',
    }),
    maxRetriesPerStep: config_int(0).default(3).register(config_registry, {
        flag: 'max-retries-per-step', arg: 'N', commands: RUN,
        help: 'Retries of a failing step (tests failing, transient agent failures), and step-back transitions allowed in one cycle, before the cycle is escalated.', expected: 'a whole number ≥ 0',
    }),
    maxConsecutiveEscalations: config_int(1).default(2).register(config_registry, {
        flag: 'max-consecutive-escalations', arg: 'N', commands: RUN,
        help: 'Escalated cycles in a row, with no successful cycle between them, before the run halts (FAILURE LOOP DETECTED).',
        expected: 'a whole number ≥ 1',
    }),
    stateDir: schemas_string().min(1).default('.agent-loop').register(config_registry, {
        flag: 'state-dir', arg: 'DIR', commands: ALL,
        help: 'Where checkpoints, logs and errors.jsonl live (never committed).', expected: 'a path',
    }),
    resume: schemas_string().regex(UUID_V4).optional().register(config_registry, {
        flag: 'resume', arg: 'ID', commands: RUN, defaultText: 'the newest resumable checkpoint',
        help: 'Resume this checkpoint instead of the newest one.', expected: 'a checkpoint id (UUID v4, see agent-loop status)',
    }),
    fresh: flagSwitch().register(config_registry, {
        flag: 'fresh', commands: RUN, help: 'Ignore existing checkpoints and start a new run.', expected: 'true or false',
    }),
    strict: flagSwitch().register(config_registry, {
        flag: 'strict', commands: RUN,
        help: "Halt when the agent's report contradicts itself, instead of overriding it and continuing.",
        expected: 'true or false',
    }),
    discordWebhook: preprocess(toUndefinedIfEmpty, url({ protocol: /^https?$/ }).optional()).register(config_registry, {
        flag: 'discord-webhook', arg: 'URL', commands: RUN, secret: true, defaultText: 'none',
        help: 'Discord webhook that receives the halt diagnostic (a secret: masked in every output).', expected: 'an http(s) URL',
    }),
    secretEnv: config_text().register(config_registry, {
        flag: 'secret-env', arg: 'NAMES', commands: RUN, defaultText: 'none',
        help: 'More environment variables whose values are secrets, comma-separated (ANTHROPIC_API_KEY, OPENAI_API_KEY, CODEX_API_KEY, GITHUB_TOKEN, GH_TOKEN and the webhook URL always are).',
        expected: 'environment variable names, comma-separated',
    }),
    githubToken: config_text().register(config_registry, {
        flag: 'github-token', arg: 'TOKEN', commands: ACTION, secret: true, defaultText: '${{ github.token }}',
        help: 'Token for the GitHub API (issues, labels, comments, pull requests) and artifacts; masked everywhere.',
        expected: 'a GitHub token',
    }),
    label: schemas_string().trim().min(1).default('agent-loop').register(config_registry, {
        flag: 'label', arg: 'LABEL', commands: ACTION,
        help: 'Only open issues carrying this label are worked on.', expected: 'a label name',
    }),
    allowedAuthors: schemas_string().trim().min(1).default('OWNER,MEMBER,COLLABORATOR').register(config_registry, {
        flag: 'allowed-authors', arg: 'ASSOCIATIONS', commands: ACTION,
        help: "Author associations whose issues may be worked on (others are skipped and listed in the summary): an outsider cannot make the agent run their text.",
        expected: 'comma-separated author associations, e.g. OWNER,MEMBER,COLLABORATOR',
    }),
    installAgent: flagSwitch().register(config_registry, {
        flag: 'install-agent', commands: ACTION,
        help: 'Install the pinned Claude Code or Codex CLI when it is not on PATH.', expected: 'true or false',
    }),
    draftPr: flagSwitch().register(config_registry, {
        flag: 'draft-pr', commands: ACTION,
        help: 'Open the pull request of a finished issue as a draft.', expected: 'true or false',
    }),
    json: flagSwitch().register(config_registry, {
        flag: 'json', commands: ALL,
        help: 'stdout becomes NDJSON events; the last line is the result.', expected: 'true or false',
    }),
    olderThan: nonNegative().optional().register(config_registry, {
        flag: 'older-than', arg: 'DAYS', commands: ['cleanup'],
        help: 'Delete checkpoints older than DAYS days (the newest resumable one is kept).', expected: 'a number of days ≥ 0',
    }),
    all: flagSwitch().register(config_registry, {
        flag: 'all', commands: ['cleanup'], help: 'Delete every checkpoint, the resumable one included.', expected: 'true or false',
    }),
    dryRun: flagSwitch().register(config_registry, {
        flag: 'dry-run', commands: ['cleanup'], help: 'Print what would be deleted and delete nothing.', expected: 'true or false',
    }),
});
const OPTIONS = Object.entries(OptionsSchema.shape).map(([key, schema]) => {
    const meta = config_registry.get(schema);
    if (!meta)
        throw new Error(`option ${key} has no metadata`);
    const parsed = schema.safeParse(undefined);
    const dflt = parsed.success && parsed.data !== undefined ? String(parsed.data) : meta.defaultText;
    return { ...meta, key: key, defaultValue: dflt, env: `AGENT_LOOP_${meta.flag.toUpperCase().replace(/-/g, '_')}` };
});
const byFlag = new Map(OPTIONS.map((o) => [o.flag, o]));
const optionsFor = (command) => OPTIONS.filter((o) => o.commands.includes(command));
class ConfigError extends Error {
    problems;
    constructor(problems) {
        super(problems.map((p) => p.message).join('\n'));
        this.problems = problems;
        this.name = 'ConfigError';
    }
}
/** Splits argv into a command and `--flag value` / `--flag=value` / `--switch` pairs; collects every problem. */
function parseArgs(argv) {
    const out = { help: false, version: false, values: new Map(), problems: [] };
    let i = 0;
    const first = argv[0];
    if (first !== undefined && !first.startsWith('-')) {
        if (COMMANDS.includes(first))
            out.command = first;
        else if (first === 'help')
            out.help = true;
        else
            out.problems.push({ option: first, message: `Unknown command '${first}'. Expected one of: ${COMMANDS.join(', ')}.` });
        i = 1;
    }
    for (; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--help' || arg === '-h') {
            out.help = true;
            continue;
        }
        if (arg === '--version' || arg === '-V') {
            out.version = true;
            continue;
        }
        if (!arg.startsWith('--')) {
            out.problems.push({ option: arg, message: `Unexpected argument '${arg}'. Options are written --name value.` });
            continue;
        }
        const eq = arg.indexOf('=');
        const name = arg.slice(2, eq === -1 ? undefined : eq);
        const info = byFlag.get(name);
        if (!info) {
            out.problems.push({ option: `--${name}`, message: `Unknown option --${name}. See agent-loop ${out.command ?? ''} --help.`.replace('  ', ' ') });
            continue;
        }
        if (eq !== -1) {
            out.values.set(name, arg.slice(eq + 1));
            continue;
        }
        const next = argv[i + 1];
        if (!info.arg) {
            // A switch: --fresh, or --fresh true|false.
            if (next !== undefined && /^(true|false)$/i.test(next)) {
                out.values.set(name, next);
                i++;
            }
            else
                out.values.set(name, true);
            continue;
        }
        if (next === undefined || (next.startsWith('--') && byFlag.has(next.slice(2).split('=')[0] ?? ''))) {
            out.problems.push({ option: `--${name}`, message: `--${name}: a value is missing; expected ${info.expected}.` });
            continue;
        }
        out.values.set(name, next);
        i++;
    }
    return out;
}
/** Merges the four layers and validates once. Throws ConfigError listing every problem. */
function loadConfig(sources) {
    const { command, flags, env } = sources;
    const readFile = sources.readFile ?? ((p) => (0,external_node_fs_namespaceObject.readFileSync)(p, 'utf8'));
    const allowed = new Set(optionsFor(command).map((o) => o.key));
    const problems = [];
    const merged = new Map();
    for (const [flag] of flags) {
        const info = byFlag.get(flag);
        if (info && !allowed.has(info.key)) {
            problems.push({ option: `--${flag}`, message: `--${flag} is not an option of '${command}'. See agent-loop ${command} --help.` });
        }
    }
    // Layer 2: the config file.
    const explicitConfig = flags.get('config') ?? env.AGENT_LOOP_CONFIG;
    const configPath = typeof explicitConfig === 'string' ? explicitConfig : '.agent-loop.yml';
    let fileText;
    try {
        fileText = readFile(configPath);
    }
    catch (error) {
        const code = error.code;
        if (explicitConfig !== undefined || code !== 'ENOENT') {
            problems.push({ option: '--config', message: `--config: cannot read '${configPath}' (${code ?? error.message}); expected a readable YAML file.` });
        }
    }
    if (fileText !== undefined) {
        let doc;
        try {
            doc = dist.parse(fileText);
        }
        catch (error) {
            problems.push({ option: '--config', message: `--config: '${configPath}' is not valid YAML (${error.message.split('\n')[0]}).` });
        }
        if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))) {
            problems.push({ option: '--config', message: `--config: '${configPath}' must be a mapping of option names to values.` });
        }
        else if (doc) {
            for (const [name, value] of Object.entries(doc)) {
                const info = byFlag.get(name) ?? OPTIONS.find((o) => o.key === name);
                if (!info || info.key === 'config') {
                    problems.push({ option: name, message: `${configPath}: unknown option '${name}'. Keys are the flag names, e.g. max-iterations.` });
                }
                else if (allowed.has(info.key) && value !== null) {
                    merged.set(info.key, { value, from: configPath });
                }
            }
        }
    }
    // Layer 3: the environment. Layer 4: flags.
    for (const info of OPTIONS) {
        if (!allowed.has(info.key) || info.key === 'config')
            continue;
        const fromEnv = env[info.env];
        if (fromEnv !== undefined && fromEnv !== '')
            merged.set(info.key, { value: fromEnv, from: info.env });
        const fromFlag = flags.get(info.flag);
        if (fromFlag !== undefined)
            merged.set(info.key, { value: fromFlag, from: `--${info.flag}` });
    }
    const input = Object.fromEntries([...merged].map(([k, o]) => [k, o.value]));
    const result = OptionsSchema.safeParse(input);
    if (!result.success) {
        for (const issue of result.error.issues) {
            const key = issue.path[0];
            const info = OPTIONS.find((o) => o.key === key);
            if (!info) {
                problems.push({ option: String(key), message: issue.message });
                continue;
            }
            const origin = merged.get(info.key);
            const shown = info.secret ? '***' : JSON.stringify(origin?.value);
            const where = origin && origin.from !== `--${info.flag}` ? ` (from ${origin.from})` : '';
            problems.push({ option: `--${info.flag}`, message: `--${info.flag}: got ${shown}${where}; expected ${info.expected}.` });
        }
    }
    const options = result.success ? result.data : undefined;
    if (options?.agentArgs !== undefined) {
        try {
            splitArgs(options.agentArgs);
        }
        catch (error) {
            problems.push({ option: '--agent-args', message: `--agent-args: ${error.message}; expected arguments with balanced quotes.` });
        }
    }
    if (options && (command === 'run' || command === 'action')) {
        if (options.resume && options.fresh)
            problems.push({ option: '--resume', message: '--resume and --fresh contradict each other: give one of them.' });
        if (options.agent === 'command' && !options.agentCommand) {
            problems.push({ option: '--agent-command', message: '--agent-command: required with --agent command; expected a shell command such as "./scripts/agent.sh".' });
        }
    }
    if (options && command === 'cleanup') {
        if (options.all === (options.olderThan !== undefined)) {
            problems.push({ option: '--older-than', message: 'cleanup needs exactly one of --older-than DAYS or --all.' });
        }
    }
    if (problems.length > 0 || !options)
        throw new ConfigError(problems);
    return { options, secrets: collectSecrets(options, env) };
}
const SECRET_ENV = /(TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|WEBHOOK|PRIVATE_KEY|CREDENTIALS?)$/i;
/**
 * Values that must never appear in a log line, summary or message: option values marked secret
 * (the Discord webhook URL, and its token on its own), the well-known credentials, the variables
 * named in --secret-env, and any variable whose name ends like a secret's (SECRET_ENV). Values
 * shorter than 6 characters are left out (MIN_SECRET_LENGTH in report/redact.ts says why).
 */
function collectSecrets(options, env) {
    const MIN_SECRET_LENGTH = 6;
    const WELL_KNOWN = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'CODEX_API_KEY', 'GITHUB_TOKEN', 'GH_TOKEN'];
    const values = new Set();
    const add = (v) => {
        if (typeof v !== 'string')
            return;
        values.add(v);
        // A value read from a file often keeps its newline; the value without it is what gets printed.
        values.add(v.trim());
    };
    for (const info of OPTIONS) {
        const v = options[info.key];
        if (info.secret && typeof v === 'string') {
            add(v);
            // A webhook URL's secret is its token: …/webhooks/<id>/<token> (Discord, also behind other hosts).
            const token = /\/webhooks\/[^/?#\s]+\/([^/?#\s]+)/.exec(v)?.[1];
            if (token) {
                add(token);
                try {
                    add(decodeURIComponent(token));
                }
                catch {
                    // not valid percent-encoding: the raw token is masked anyway
                }
            }
        }
    }
    const named = (options.secretEnv ?? '').split(/[\s,]+/).filter((name) => name !== '');
    for (const name of [...WELL_KNOWN, ...named])
        add(env[name]);
    for (const [name, v] of Object.entries(env)) {
        if (v && SECRET_ENV.test(name))
            add(v);
    }
    return [...values].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./src/util/atomicWrite.ts



/** Marks our temporary files: `.<name>.agent-loop-<pid>-<hex>.tmp`. */
const TEMP_MARK = 'agent-loop-';
/** A git exclude pattern for them, so a write cut short by a crash is never committed. */
const TEMP_FILE_PATTERN = `*.${TEMP_MARK}*.tmp`;
/** The pid that wrote a temporary file of ours, or undefined when `name` is not one. */
function tempFileOwner(name) {
    const m = /\.agent-loop-(\d+)-[0-9a-f]+\.tmp$/.exec(name);
    return m ? Number(m[1]) : undefined;
}
/**
 * Replaces `file` with `content` so that a reader (or a crash at any moment) sees either the old
 * file or the new one, never a mix: write a temporary file in the same directory, fsync it,
 * rename it over the target, then fsync the directory so the rename itself is durable.
 */
async function writeFileAtomic(file, content) {
    const dir = external_node_path_default().dirname(file);
    await external_node_fs_namespaceObject.promises.mkdir(dir, { recursive: true });
    const tmp = external_node_path_default().join(dir, `.${external_node_path_default().basename(file)}.${TEMP_MARK}${process.pid}-${(0,external_node_crypto_namespaceObject.randomBytes)(4).toString('hex')}.tmp`);
    const handle = await external_node_fs_namespaceObject.promises.open(tmp, 'w', 0o644);
    try {
        await handle.writeFile(content);
        await handle.sync();
    }
    finally {
        await handle.close();
    }
    try {
        await external_node_fs_namespaceObject.promises.rename(tmp, file);
    }
    catch (error) {
        await external_node_fs_namespaceObject.promises.rm(tmp, { force: true });
        throw error;
    }
    await syncDir(dir);
}
async function syncDir(dir) {
    let handle;
    try {
        handle = await external_node_fs_namespaceObject.promises.open(dir, 'r');
        await handle.sync();
    }
    catch {
        // Directory fsync is not supported everywhere (e.g. some network filesystems); the rename is done.
    }
    finally {
        await handle?.close();
    }
}

;// CONCATENATED MODULE: ./src/util/clock.ts
const systemClock = {
    now: () => new Date(),
    sleep: (ms, signal) => new Promise((resolve) => {
        if (ms <= 0 || signal?.aborted)
            return resolve();
        const timer = setTimeout(done, ms);
        function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
    }),
};
/** RFC 3339 in UTC with second precision, e.g. 2026-11-21T10:30:00Z. */
function rfc3339(date) {
    return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

;// CONCATENATED MODULE: ./src/checkpoint/types.ts
/** The pipeline phases of seed 001, in order. A checkpoint's phase is `<phase>-complete|failed`. */
const PIPELINE_PHASES = [
    'research',
    'decomposition',
    'planning',
    'phase_decomposition',
    'beads_integration',
    'implementation',
];
class CheckpointError extends Error {
    path;
    reason;
    constructor(path, reason) {
        super(`checkpoint ${path}: ${reason}`);
        this.path = path;
        this.reason = reason;
        this.name = 'CheckpointError';
    }
}

;// CONCATENATED MODULE: ./src/checkpoint/schema.ts



/**
 * The on-disk format of one checkpoint, `<state-dir>/checkpoints/<id>.json` (REQ_018.1–.5):
 * `{"id", "phase", "timestamp", "sequence", "state", "errors"?}`, pretty-printed with a 2-space
 * indent and a trailing newline; `errors` is omitted when empty.
 */
const schema_UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** UUID v4 (version nibble 4, variant 8|9|a|b), either case. Checkpoint ids are file names, so nothing else is accepted. */
function isUuidV4(value) {
    return typeof value === 'string' && schema_UUID_V4.test(value);
}
const PHASE_STATUSES = ['complete', 'failed'];
/** Every valid checkpoint phase, in pipeline order: `research-complete`, `research-failed`, … */
const CHECKPOINT_PHASES = PIPELINE_PHASES.flatMap((phase) => PHASE_STATUSES.map((status) => `${phase}-${status}`));
function isCheckpointPhase(value) {
    return typeof value === 'string' && CHECKPOINT_PHASES.includes(value);
}
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/;
/**
 * Parses an RFC 3339 date-time (`2026-11-21T10:30:00Z`, `2026-11-21T12:30:00+02:00`, optional
 * fractional seconds) into a Date, honouring the offset. undefined when it is not one, including
 * impossible dates such as February 30th.
 */
function parseRfc3339(value) {
    const m = RFC3339.exec(value);
    if (!m)
        return undefined;
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
        return undefined;
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day > daysInMonth)
        return undefined;
    let offsetMinutes = 0;
    if (m[8] !== 'Z') {
        const offsetHours = Number(m[10]);
        const offsetMins = Number(m[11]);
        if (offsetHours > 23 || offsetMins > 59)
            return undefined;
        offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
    }
    const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
    // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, millis);
    return new Date(date.getTime() - offsetMinutes * 60_000);
}
/** How a JSON value reads in a message: "an array", "null", "a string ("x")", "nothing". */
function schema_describe(value) {
    if (value === undefined)
        return 'nothing';
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'an array';
    if (typeof value === 'string')
        return `the string ${quote(value)}`;
    if (typeof value === 'number' || typeof value === 'boolean')
        return `${typeof value} ${String(value)}`;
    return `a ${typeof value}`;
}
/** A string as it appears in a message: quoted, long ones cut. */
function quote(value) {
    const text = String(value);
    return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
function schema_isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const checkpointFileSchema = object({
    id: schemas_string({ error: (iss) => `id must be a string (a UUID v4), got ${schema_describe(iss.input)}` })
        .refine(isUuidV4, {
        error: (iss) => `id ${quote(iss.input)} is not a UUID v4 (expected xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx with y one of 8, 9, a, b)`,
    }),
    phase: schemas_string({ error: (iss) => `phase must be a string, got ${schema_describe(iss.input)}` })
        .refine(isCheckpointPhase, {
        error: (iss) => `phase ${quote(iss.input)} is not <pipeline phase>-complete|failed; valid phases: ${CHECKPOINT_PHASES.join(', ')}`,
    }),
    timestamp: schemas_string({ error: (iss) => `timestamp must be a string, got ${schema_describe(iss.input)}` })
        .refine((value) => parseRfc3339(value) !== undefined, {
        error: (iss) => `timestamp ${quote(iss.input)} is not an RFC 3339 date-time (expected e.g. 2026-11-21T10:30:00Z or 2026-11-21T12:30:00+02:00)`,
    }),
    // Files written by the Go original have no sequence; they sort before any same-second checkpoint of ours.
    sequence: schemas_int({ error: (iss) => `sequence must be a whole number, got ${schema_describe(iss.input)}` })
        .min(0, { error: (iss) => `sequence must not be negative, got ${schema_describe(iss.input)}` })
        .optional(),
    // Absent or null is the Go original's `omitempty` on a nil map: an empty state (see checkpointWarnings).
    state: unknown()
        .refine((value) => value === null || schema_isPlainObject(value), {
        error: (iss) => `state must be a JSON object, got ${schema_describe(iss.input)}`,
    })
        .optional(),
    errors: array(schemas_string({ error: (iss) => `must be a string, got ${schema_describe(iss.input)}` }), {
        error: (iss) => `errors must be a list of strings, got ${schema_describe(iss.input)}`,
    })
        .nullish(),
});
function formatIssue(issue) {
    // Element issues (errors[2]) carry their position; field issues already name the field.
    if (issue.path.length > 1) {
        const [field, ...rest] = issue.path;
        return `${String(field)}${rest.map((key) => `[${String(key)}]`).join('')} ${issue.message}`;
    }
    return issue.message;
}
/**
 * Parses and validates the text of a checkpoint file read from `file`. Throws CheckpointError
 * naming the file and every problem found: invalid JSON (with line, column and offset), an id that
 * is not a UUID v4 or not the file's name, a phase outside the pipeline, a timestamp that is not
 * RFC 3339, a state that is not an object, errors that are not a list of strings.
 */
function parseCheckpoint(text, file) {
    let data;
    try {
        data = JSON.parse(text);
    }
    catch (error) {
        throw new CheckpointError(file, `${describeJsonError(text, error)}; fix the file or remove it`);
    }
    if (!schema_isPlainObject(data)) {
        throw new CheckpointError(file, `expected a JSON object with id, phase, timestamp, state; got ${schema_describe(data)}`);
    }
    const result = checkpointFileSchema.safeParse(data);
    if (!result.success) {
        throw new CheckpointError(file, result.error.issues.map(formatIssue).join('; '));
    }
    const { id, phase, timestamp, sequence, state, errors } = result.data;
    const expectedName = `${id}.json`;
    if (external_node_path_default().basename(file) !== expectedName) {
        throw new CheckpointError(file, `id ${id} does not match the file name ${external_node_path_default().basename(file)}; a checkpoint file must be named <id>.json (${expectedName})`);
    }
    const checkpoint = {
        id,
        phase: phase,
        timestamp,
        sequence: sequence ?? 0,
        state: schema_isPlainObject(state) ? state : {},
    };
    if (errors && errors.length > 0)
        checkpoint.errors = errors;
    return checkpoint;
}
/**
 * The file text for a checkpoint: fields in the documented order, 2-space indent, trailing
 * newline, `errors` only when there are some. Throws CheckpointError when the state cannot be
 * represented in JSON (a cycle, a BigInt).
 */
function serializeCheckpoint(checkpoint) {
    const { id, phase, timestamp, sequence, state, errors } = checkpoint;
    const ordered = { id, phase, timestamp, sequence, state };
    if (errors && errors.length > 0)
        ordered.errors = errors;
    try {
        return `${JSON.stringify(ordered, null, 2)}\n`;
    }
    catch (error) {
        throw new CheckpointError(`${id}.json`, `state cannot be written as JSON (${error instanceof Error ? error.message : String(error)}); keep only plain data (objects, arrays, strings, numbers, booleans, null) in it`);
    }
}
/**
 * Problems that do not make a checkpoint unusable but deserve a log line (REQ_018.4.8: an empty
 * state is allowed but logged as a warning).
 */
function checkpointWarnings(checkpoint) {
    return Object.keys(checkpoint.state).length === 0
        ? [`checkpoint ${checkpoint.id} has an empty state: nothing but its phase was saved, so resuming from it keeps no progress`]
        : [];
}
// --- where JSON.parse failed --------------------------------------------------------------------
/** "invalid JSON at line 3, column 5 (offset 42): unexpected '}'" — V8 does not always give a position. */
function describeJsonError(text, error) {
    if (text.trim() === '')
        return 'the file is empty (expected a JSON object); it was probably cut short while being written';
    const found = findJsonError(text);
    if (!found)
        return `invalid JSON: ${error instanceof Error ? error.message : String(error)}`;
    const before = text.slice(0, found.offset);
    const line = before.split('\n').length;
    const column = found.offset - before.lastIndexOf('\n');
    return `invalid JSON at line ${line}, column ${column} (offset ${found.offset}): ${found.problem}`;
}
/** The first offset at which `text` stops being JSON (RFC 8259), or undefined when it is valid. */
function findJsonError(text) {
    let i = 0;
    const fail = (problem) => {
        if (i >= text.length)
            throw new JsonSyntax(i, 'unexpected end of input (the file may have been cut short)');
        throw new JsonSyntax(i, problem ?? `unexpected ${JSON.stringify(text[i])}`);
    };
    const ws = () => {
        while (i < text.length && ' \t\n\r'.includes(text[i]))
            i++;
    };
    const literal = (word) => {
        for (const ch of word) {
            if (text[i] !== ch)
                fail();
            i++;
        }
    };
    const digits = () => {
        const start = i;
        while (i < text.length && text[i] >= '0' && text[i] <= '9')
            i++;
        if (i === start)
            fail();
    };
    const number = () => {
        if (text[i] === '-')
            i++;
        if (text[i] === '0')
            i++;
        else
            digits();
        if (text[i] === '.') {
            i++;
            digits();
        }
        if (text[i] === 'e' || text[i] === 'E') {
            i++;
            if (text[i] === '+' || text[i] === '-')
                i++;
            digits();
        }
    };
    const string = () => {
        i++; // opening quote
        for (;;) {
            if (i >= text.length)
                fail();
            const ch = text.charCodeAt(i);
            if (ch === 0x22)
                return void i++;
            if (ch < 0x20)
                fail('control character in a string (escape it)');
            if (ch === 0x5c) {
                i++;
                const esc = text[i];
                if (esc === 'u') {
                    for (let k = 0; k < 4; k++) {
                        i++;
                        if (!/[0-9a-fA-F]/.test(text[i] ?? ''))
                            fail('invalid \\u escape');
                    }
                }
                else if (esc === undefined || !'"\\/bfnrt'.includes(esc))
                    fail('invalid escape in a string');
            }
            i++;
        }
    };
    // Iterative over containers so deeply nested input cannot overflow the stack.
    const stack = [];
    const value = () => {
        ws();
        const ch = text[i];
        if (ch === '{' || ch === '[') {
            stack.push(ch);
            i++;
            ws();
            if (text[i] === (ch === '{' ? '}' : ']')) {
                stack.pop();
                i++;
                closeContainers();
                return;
            }
            if (ch === '{')
                key();
            return;
        }
        if (ch === '"')
            string();
        else if (ch === 't')
            literal('true');
        else if (ch === 'f')
            literal('false');
        else if (ch === 'n')
            literal('null');
        else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9'))
            number();
        else
            fail();
        closeContainers();
    };
    const key = () => {
        ws();
        if (text[i] !== '"')
            fail('expected a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':')
            fail("expected ':' after a property name");
        i++;
    };
    /** After a value: close finished containers, or step to the next element. */
    const closeContainers = () => {
        for (;;) {
            const top = stack[stack.length - 1];
            if (!top)
                return;
            ws();
            const close = top === '{' ? '}' : ']';
            if (text[i] === close) {
                stack.pop();
                i++;
                continue;
            }
            if (text[i] !== ',')
                fail(`expected ',' or '${close}'`);
            i++;
            if (top === '{')
                key();
            return;
        }
    };
    try {
        value();
        while (stack.length > 0)
            value();
        ws();
        if (i < text.length)
            fail('unexpected content after the JSON value');
        return undefined;
    }
    catch (error) {
        if (error instanceof JsonSyntax)
            return { offset: error.offset, problem: error.problem };
        throw error;
    }
}
class JsonSyntax extends Error {
    offset;
    problem;
    constructor(offset, problem) {
        super(problem);
        this.offset = offset;
        this.problem = problem;
    }
}

;// CONCATENATED MODULE: ./src/checkpoint/resume.ts


/** Which checkpoint to resume and where (seed 001's DetectResumableCheckpoint), as pure decisions. */
const MS_PER_DAY = 24 * 60 * 60 * 1000;
/** A checkpoint is resumable unless it records the end of the last phase: nothing is left to do. */
function isResumable(checkpoint) {
    return resumePoint(checkpoint) !== undefined;
}
/**
 * The pipeline phase to run next: a failed phase is retried (`implementation-failed` →
 * implementation), a completed one is followed by the next (`beads_integration-complete` →
 * implementation); undefined after `implementation-complete`.
 */
function resumePoint(checkpoint) {
    const { phase, status } = splitPhase(checkpoint.phase);
    if (status === 'failed')
        return phase;
    return PIPELINE_PHASES[PIPELINE_PHASES.indexOf(phase) + 1];
}
function splitPhase(value) {
    const cut = value.lastIndexOf('-');
    return { phase: value.slice(0, cut), status: value.slice(cut + 1) };
}
/** Milliseconds since the epoch, offsets respected; -Infinity for an unparseable timestamp (sorts oldest). */
function checkpointTime(checkpoint) {
    return parseRfc3339(checkpoint.timestamp)?.getTime() ?? Number.NEGATIVE_INFINITY;
}
/** Sort order newest first: later timestamp, then higher sequence, then id (so the order is total). */
function compareNewestFirst(a, b) {
    const ta = checkpointTime(a);
    const tb = checkpointTime(b);
    if (ta !== tb)
        return ta > tb ? -1 : 1;
    if (a.sequence !== b.sequence)
        return b.sequence - a.sequence;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
/** The checkpoints newest first, as a new array. */
function newestFirst(checkpoints) {
    return [...checkpoints].sort(compareNewestFirst);
}
/** The newest resumable checkpoint (REQ_018.3.6: by timestamp, ties broken by sequence), or undefined. */
function pickResumable(checkpoints) {
    return newestFirst(checkpoints).find(isResumable);
}
/** seed 001's DetectResumableCheckpoint: the checkpoint to resume, where, and what went wrong last time. */
function detectResumable(checkpoints) {
    const checkpoint = pickResumable(checkpoints);
    const resumeAt = checkpoint && resumePoint(checkpoint);
    if (!checkpoint || !resumeAt)
        return undefined;
    return { checkpoint, resumeAt, errors: [...(checkpoint.errors ?? [])] };
}
/**
 * Age in fractional days at `now` (REQ_018.3.9). Negative when the timestamp is in the future
 * (clock skew between machines). Throws when the timestamp is not RFC 3339.
 */
function ageInDays(checkpoint, now) {
    const time = parseRfc3339(checkpoint.timestamp);
    if (!time) {
        throw new RangeError(`checkpoint ${checkpoint.id}: timestamp ${JSON.stringify(checkpoint.timestamp)} is not RFC 3339, so its age is unknown`);
    }
    return (now.getTime() - time.getTime()) / MS_PER_DAY;
}

;// CONCATENATED MODULE: ./src/checkpoint/fileStore.ts








/** A new checkpoint id: a random UUID v4 (REQ_018.1.2–.3). */
function newCheckpointId() {
    return (0,external_node_crypto_namespaceObject.randomUUID)();
}
/** `<stateDir>/checkpoints` */
function checkpointsDir(stateDir) {
    return external_node_path_default().join(stateDir, 'checkpoints');
}
/**
 * Checkpoints as `<stateDir>/checkpoints/<id>.json`, one file per id, written atomically.
 * An id reaches the filesystem only after it has been checked to be a UUID v4.
 */
class FileCheckpointStore {
    stateDir;
    dir;
    clock;
    warn;
    redact;
    /** Highest sequence seen in this store; read from the directory on the first write. */
    highestSequence;
    /** Writes run one at a time so each gets its own sequence number. */
    writes = Promise.resolve();
    constructor(stateDir, options = {}) {
        this.stateDir = stateDir;
        this.dir = checkpointsDir(stateDir);
        this.clock = options.clock ?? systemClock;
        this.warn = options.onWarning ?? (() => { });
        this.redact = options.redact ?? ((text) => text);
    }
    async list() {
        let entries;
        try {
            entries = await external_node_fs_namespaceObject.promises.readdir(this.dir, { withFileTypes: true });
        }
        catch (error) {
            if (errorCode(error) === 'ENOENT')
                return { checkpoints: [], invalid: [] };
            throw new CheckpointError(this.dir, `cannot read the checkpoints directory (${errorMessage(error)}); check that it is a readable directory`);
        }
        const checkpoints = [];
        const invalid = [];
        const names = entries
            .filter((entry) => !entry.name.startsWith('.') && entry.name.endsWith('.json'))
            .sort((a, b) => (a.name < b.name ? -1 : 1));
        for (const entry of names) {
            const file = external_node_path_default().join(this.dir, entry.name);
            const id = entry.name.slice(0, -'.json'.length);
            if (!isUuidV4(id)) {
                invalid.push({ path: file, reason: `the file name is not <uuid-v4>.json, so it is not a checkpoint this tool wrote; move it out of ${this.dir}` });
                continue;
            }
            if (entry.isDirectory()) {
                invalid.push({ path: file, reason: 'is a directory, not a checkpoint file' });
                continue;
            }
            try {
                checkpoints.push(await this.readFile(file));
            }
            catch (error) {
                invalid.push({ path: file, reason: error instanceof CheckpointError ? error.reason : errorMessage(error) });
            }
        }
        return { checkpoints: newestFirst(checkpoints), invalid };
    }
    async load(id) {
        const file = this.pathFor(id);
        try {
            const checkpoint = await this.readFile(file);
            checkpointWarnings(checkpoint).forEach(this.warn);
            return checkpoint;
        }
        catch (error) {
            if (errorCode(error) === 'ENOENT') {
                throw new CheckpointError(file, `no checkpoint with id ${id} exists in ${this.dir}; run \`agent-loop status --state-dir ${this.stateDir}\` to list the checkpoints there`);
            }
            throw error;
        }
    }
    write(checkpoint) {
        const run = this.writes.then(() => this.writeNow(checkpoint));
        this.writes = run.catch(() => { });
        return run;
    }
    async delete(id) {
        const file = this.pathFor(id);
        try {
            await external_node_fs_namespaceObject.promises.unlink(file);
        }
        catch (error) {
            if (errorCode(error) === 'ENOENT')
                return;
            throw new CheckpointError(file, `cannot delete (${errorMessage(error)}); check the permissions of ${this.dir}`);
        }
    }
    /**
     * Temporary files left by writes that a crash cut short (their writer is no longer running):
     * removed unless `dryRun`. They are never read as checkpoints either way. Returns their paths.
     */
    async removeStaleTempFiles(dryRun, isAlive = pidIsAlive) {
        const names = await external_node_fs_namespaceObject.promises.readdir(this.dir).catch(() => []);
        const stale = names.filter((name) => {
            const owner = tempFileOwner(name);
            return owner !== undefined && !isAlive(owner);
        });
        const paths = stale.map((name) => external_node_path_default().join(this.dir, name));
        if (!dryRun)
            await Promise.all(paths.map((p) => external_node_fs_namespaceObject.promises.rm(p, { force: true })));
        return paths;
    }
    /** The file of a checkpoint id; throws unless the id is a UUID v4, so nothing else becomes a path. */
    pathFor(id) {
        if (!isUuidV4(id)) {
            throw new CheckpointError(String(id), `${JSON.stringify(id)} is not a checkpoint id (a UUID v4 such as 3b241101-e2bb-4255-8caf-4136c566a962); run \`agent-loop status --state-dir ${this.stateDir}\` to list the checkpoint ids`);
        }
        return external_node_path_default().join(this.dir, `${id}.json`);
    }
    async readFile(file) {
        let text;
        try {
            text = await external_node_fs_namespaceObject.promises.readFile(file, 'utf8');
        }
        catch (error) {
            if (errorCode(error) === 'ENOENT')
                throw error;
            throw new CheckpointError(file, `cannot read (${errorMessage(error)})`);
        }
        return parseCheckpoint(text, file);
    }
    async writeNow(input) {
        const { id, state, errors } = input;
        // Typed as a phase, but callers (and JavaScript) can still pass any string: check at run time.
        const phase = input.phase;
        if (typeof id !== 'string' || id === '') {
            throw new CheckpointError(this.dir, 'cannot write a checkpoint without an id; create one with newCheckpointId()');
        }
        const file = this.pathFor(id);
        if (typeof phase !== 'string' || phase === '') {
            throw new CheckpointError(file, `cannot write a checkpoint without a phase; use one of ${CHECKPOINT_PHASES.join(', ')}`);
        }
        if (!isCheckpointPhase(phase)) {
            throw new CheckpointError(file, `phase ${JSON.stringify(phase)} is not <pipeline phase>-complete|failed; use one of ${CHECKPOINT_PHASES.join(', ')}`);
        }
        if (typeof state !== 'object' || state === null || Array.isArray(state)) {
            throw new CheckpointError(file, 'state must be an object (use {} for no state)');
        }
        if (errors !== undefined && !(Array.isArray(errors) && errors.every((e) => typeof e === 'string'))) {
            throw new CheckpointError(file, 'errors must be a list of strings (complete, human-readable messages)');
        }
        const sequence = Math.max(await this.highestSequenceSoFar(), await this.sequenceOf(file)) + 1;
        const checkpoint = { id, phase, timestamp: rfc3339(this.clock.now()), sequence, state };
        if (errors && errors.length > 0)
            checkpoint.errors = [...errors];
        const text = this.redact(serializeCheckpoint(checkpoint));
        checkpointWarnings(checkpoint).forEach(this.warn);
        await writeFileAtomic(file, text);
        this.highestSequence = sequence;
        // What was written, as a reader will see it (JSON drops undefined, turns Dates into strings).
        return parseCheckpoint(text, file);
    }
    async highestSequenceSoFar() {
        if (this.highestSequence === undefined) {
            const { checkpoints } = await this.list();
            this.highestSequence = Math.max(0, ...checkpoints.map((cp) => cp.sequence));
        }
        return this.highestSequence;
    }
    /** The sequence of the checkpoint about to be overwritten (another process may have written it since); 0 if none. */
    async sequenceOf(file) {
        try {
            return parseCheckpoint(await external_node_fs_namespaceObject.promises.readFile(file, 'utf8'), file).sequence;
        }
        catch {
            return 0;
        }
    }
}
function errorCode(error) {
    return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
function errorMessage(error) {
    return error instanceof Error ? error.message : String(error);
}
function pidIsAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return errorCode(error) === 'EPERM';
    }
}

;// CONCATENATED MODULE: ./src/checkpoint/cleanup.ts

/**
 * Which checkpoints a cleanup removes (seed 001's CleanupByAge). With `all`, every one. With
 * `olderThanDays`, those whose age in days is greater than it, except the newest resumable
 * checkpoint. With neither, none. Throws RangeError for a negative or non-finite day count.
 */
function planCleanup(checkpoints, options, now) {
    const { olderThanDays, all } = options;
    if (olderThanDays !== undefined && !(Number.isFinite(olderThanDays) && olderThanDays >= 0)) {
        throw new RangeError(`older-than must be a number of days, 0 or more; got ${String(olderThanDays)}`);
    }
    const sorted = newestFirst(checkpoints);
    if (all)
        return { remove: sorted, keep: [], protectedNewestResumable: false };
    const newestResumable = pickResumable(sorted);
    const isOld = (cp) => olderThanDays !== undefined && ageInDays(cp, now) > olderThanDays;
    const remove = sorted.filter((cp) => isOld(cp) && cp !== newestResumable);
    const keep = sorted.filter((cp) => !remove.includes(cp));
    return {
        remove,
        keep,
        ...(newestResumable ? { keptNewestResumable: newestResumable } : {}),
        protectedNewestResumable: newestResumable !== undefined && isOld(newestResumable),
    };
}

;// CONCATENATED MODULE: ./src/cli/cleanup.ts


/**
 * Deletes old checkpoints, always keeping the newest resumable one unless `all`. Invalid files are
 * never touched. Exit code: 0 done, 1 a deletion failed (the others still ran), 2 invalid usage.
 */
async function cleanupCommand(opts, deps) {
    const { store, now, out } = deps;
    const usage = usageError(opts);
    if (usage) {
        out(`agent-loop cleanup: ${usage}`);
        return 2;
    }
    const { checkpoints, invalid } = await store.list();
    const plan = planCleanup(checkpoints, { olderThanDays: opts.olderThanDays, all: opts.all }, now);
    const deleted = [];
    const failed = [];
    if (!opts.dryRun) {
        for (const cp of plan.remove) {
            try {
                await store.delete(cp.id);
                deleted.push(cp);
            }
            catch (error) {
                failed.push({ id: cp.id, reason: error instanceof Error ? error.message : String(error) });
            }
        }
    }
    const exitCode = failed.length > 0 ? 1 : 0;
    const tempFiles = await store.removeStaleTempFiles(opts.dryRun);
    if (opts.json) {
        const summary = (cp) => ({ id: cp.id, phase: cp.phase, timestamp: cp.timestamp, ageDays: ageInDays(cp, now) });
        out(JSON.stringify({
            stateDir: opts.stateDir,
            dryRun: opts.dryRun,
            deleted: deleted.map(summary),
            wouldDelete: opts.dryRun ? plan.remove.map(summary) : [],
            failed,
            kept: plan.keep.map(summary),
            keptNewestResumable: plan.keptNewestResumable?.id ?? null,
            invalid,
            tempFiles,
        }));
        return exitCode;
    }
    const describe = (cp) => `${cp.id} (${cp.phase}, ${ageInDays(cp, now).toFixed(1)} days old)`;
    if (opts.dryRun)
        for (const cp of plan.remove)
            out(`would delete ${describe(cp)}`);
    else
        for (const cp of deleted)
            out(`deleted ${describe(cp)}`);
    for (const { id, reason } of failed)
        out(`failed to delete ${id}: ${reason}`);
    const kept = plan.keptNewestResumable;
    if (kept) {
        const why = `it is the newest resumable checkpoint, the one \`agent-loop run\` would resume`;
        out(plan.protectedNewestResumable
            ? `kept ${describe(kept)}: older than ${opts.olderThanDays} days, but ${why}; pass --all to delete it too`
            : `kept ${describe(kept)}: ${why}`);
    }
    for (const bad of invalid) {
        out(`left ${bad.path} (not a valid checkpoint, so cleanup does not touch it; remove it by hand if it is not needed): ${bad.reason}`);
    }
    for (const file of tempFiles)
        out(`${opts.dryRun ? 'would remove' : 'removed'} ${file} (left by a write that a crash cut short)`);
    const total = checkpoints.length;
    const keptCount = total - (opts.dryRun ? plan.remove.length : deleted.length);
    out(opts.dryRun
        ? `Dry run: would delete ${plan.remove.length} of ${total} checkpoints in ${store.dir}, keeping ${keptCount}; nothing was deleted.`
        : `Deleted ${deleted.length} of ${total} checkpoints in ${store.dir}, kept ${keptCount}${failed.length > 0 ? `; ${failed.length} could not be deleted (see above)` : ''}.`);
    return exitCode;
}
/** What is wrong with the options, or undefined. */
function usageError(opts) {
    const days = opts.olderThanDays;
    if (days !== undefined && !(Number.isFinite(days) && days >= 0)) {
        return `--older-than must be a number of days, 0 or more (e.g. --older-than 30); got ${String(days)}`;
    }
    if (!opts.all && days === undefined) {
        return 'say which checkpoints to delete: --older-than DAYS (keeps the newest resumable one) or --all';
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/cli/help.ts

const SYNOPSIS = {
    run: 'Run the agent over the ready issues until they are closed and the tests pass, resuming the newest checkpoint.',
    status: 'List the checkpoints: id, phase, age, errors and loop progress; marks the one a run would resume.',
    cleanup: 'Delete old checkpoints (the newest resumable one is kept unless --all).',
};
const EXIT_CODES = `Exit codes:
  0  complete, or the slice ended with work remaining (continuing)
  1  halted: max iterations, stuck, contract violation (--strict) and the failure loops; state is left for inspection
  2  invalid usage or configuration (every bad option is named)
  130/143  interrupted by SIGINT/SIGTERM after writing the checkpoint`;
function commandHelp(command) {
    const lines = [`Usage: agent-loop ${command} [options]`, '', SYNOPSIS[command], '', 'Options:'];
    for (const o of optionsFor(command)) {
        const head = `  --${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
        const dflt = o.defaultValue !== undefined && o.defaultValue !== 'false' ? ` (default: ${o.defaultValue})` : '';
        lines.push(head, `      ${o.help}${dflt}  [env ${o.env}]`);
    }
    lines.push('  --help', '      Show this help.', '', EXIT_CODES);
    return lines.join('\n');
}
function mainHelp(version) {
    return [
        `agent-loop ${version}: run a coding agent over open issues until the work is done and the tests pass.`,
        '',
        'Usage: agent-loop <command> [options]',
        '',
        'Commands:',
        ...['run', 'status', 'cleanup'].map((c) => `  ${c.padEnd(8)} ${SYNOPSIS[c]}`),
        '',
        'Options come from flags, then AGENT_LOOP_<OPTION> environment variables, then .agent-loop.yml (or --config FILE), then defaults.',
        'Run `agent-loop <command> --help` for the options of a command.',
        '',
        EXIT_CODES,
    ].join('\n');
}

;// CONCATENATED MODULE: ./src/agents/report.ts

/**
 * Parsing of the agent's report block (seed 004) from its final message.
 * Pure functions; nothing here throws, whatever the input.
 */
const REPORT_KEYS = ['work_remaining', 'requires_continuation', 'stuck_detected', 'summary'];
const EMPTY_WORK_STRINGS = new Set(['', '0', '[]', 'null', '~', 'none', '""', "''"]);
/**
 * True when work_remaining says there is nothing left: absent, empty or
 * whitespace-only string, 0 / "0", "[]", YAML null (null, ~), "none", an empty
 * list (or a list of only empty items), an empty mapping, or false.
 */
function isWorkRemainingEmpty(value) {
    if (value === undefined || value === null)
        return true;
    if (typeof value === 'string') {
        const s = value.trim().toLowerCase();
        return EMPTY_WORK_STRINGS.has(s) || /^\[\s*\]$/.test(s);
    }
    if (typeof value === 'number')
        return value === 0 || Number.isNaN(value);
    if (typeof value === 'bigint')
        return value === 0n;
    if (typeof value === 'boolean')
        return !value;
    if (Array.isArray(value))
        return value.every((item) => isWorkRemainingEmpty(item));
    if (typeof value === 'object')
        return Object.keys(value).length === 0;
    return false;
}
/** work_remaining normalised to a string: lists joined with spaces, null → ''. */
function normaliseWorkRemaining(value) {
    if (value === undefined || value === null)
        return '';
    if (typeof value === 'string')
        return value.trim();
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
        return String(value);
    if (Array.isArray(value)) {
        return value
            .map((item) => normaliseWorkRemaining(item))
            .filter((s) => s !== '')
            .join(' ');
    }
    try {
        return JSON.stringify(value) ?? '';
    }
    catch {
        return '';
    }
}
/** true/false/yes/no in any case (and YAML booleans); anything else is undefined. */
function parseBoolean(value) {
    if (typeof value === 'boolean')
        return value;
    if (typeof value !== 'string')
        return undefined;
    const s = value.trim().toLowerCase();
    if (s === 'true' || s === 'yes')
        return true;
    if (s === 'false' || s === 'no')
        return false;
    return undefined;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** The value of a report key, written in lower or upper case. */
function lookup(fields, key) {
    for (const k of [key, key.toUpperCase()]) {
        if (Object.prototype.hasOwnProperty.call(fields, k))
            return { found: true, value: fields[k] };
    }
    return { found: false, value: undefined };
}
function hasReportKey(fields) {
    return REPORT_KEYS.some((k) => lookup(fields, k).found);
}
function toReportBlock(fields) {
    const work = lookup(fields, 'work_remaining');
    const block = {
        workRemainingEmpty: !work.found || isWorkRemainingEmpty(work.value),
        fields,
    };
    if (work.found)
        block.workRemaining = normaliseWorkRemaining(work.value);
    const cont = parseBoolean(lookup(fields, 'requires_continuation').value);
    if (cont !== undefined)
        block.requiresContinuation = cont;
    const stuck = parseBoolean(lookup(fields, 'stuck_detected').value);
    if (stuck !== undefined)
        block.stuckDetected = stuck;
    const summary = lookup(fields, 'summary').value;
    if (typeof summary === 'string')
        block.summary = summary.trim();
    else if (typeof summary === 'number' || typeof summary === 'boolean')
        block.summary = String(summary);
    else if (Array.isArray(summary))
        block.summary = summary.map((s) => normaliseWorkRemaining(s)).join('\n');
    return block;
}
/** Parse YAML strictly: undefined on any error (a broken block falls back to line parsing). */
function parseYaml(text) {
    try {
        const doc = dist.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
        if (doc.errors.length > 0)
            return undefined;
        return doc.toJS({ maxAliasCount: 50 });
    }
    catch {
        return undefined;
    }
}
/** The mapping holding the report keys: the top level, or one nested under a top-level key. */
function findReportMapping(parsed) {
    if (!isRecord(parsed))
        return undefined;
    if (hasReportKey(parsed))
        return parsed;
    for (const value of Object.values(parsed)) {
        if (isRecord(value) && hasReportKey(value))
            return value;
    }
    return undefined;
}
// No overlapping quantifiers that can fail late: these run on untrusted, possibly huge lines.
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([A-Za-z0-9_.+-]*)(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
function dedent(lines) {
    let min = Infinity;
    for (const line of lines) {
        if (line.trim() === '')
            continue;
        const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
        min = Math.min(min, indent);
    }
    if (!Number.isFinite(min) || min === 0)
        return lines.join('\n');
    return lines.map((line) => line.slice(Math.min(min, line.length - line.trimStart().length))).join('\n');
}
/** Fenced code blocks in order; an unclosed last fence is ignored. */
function fencedBlocks(text) {
    const blocks = [];
    const lines = text.split(/\r?\n/);
    let open;
    for (const line of lines) {
        if (!open) {
            const m = FENCE_OPEN.exec(line);
            const fence = m?.[1];
            // A backtick fence's info string cannot contain a backtick (that is inline code).
            if (m && fence !== undefined && !(fence[0] === '`' && (m[3] ?? '').includes('`'))) {
                open = { fence, lang: (m[2] ?? '').toLowerCase(), body: [] };
            }
            continue;
        }
        const c = FENCE_CLOSE.exec(line);
        const fence = c?.[1];
        if (fence !== undefined && fence[0] === open.fence[0] && fence.length >= open.fence.length) {
            blocks.push({ lang: open.lang, content: dedent(open.body) });
            open = undefined;
        }
        else {
            open.body.push(line);
        }
    }
    return blocks;
}
const KEY_ALTERNATIVES = REPORT_KEYS.flatMap((k) => [k, k.toUpperCase()]).join('|');
/** `key: value`, allowing indentation, a list bullet, and markdown emphasis around the key. */
const KEY_LINE = new RegExp(`^([ \\t]*)(?:[-*+][ \\t]+)?[\`*_]*(${KEY_ALTERNATIVES})[\`*_]*[ \\t]*:(?:[ \\t]+(.*))?$`);
function indentOf(line) {
    return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}
/** A scalar written after `key:` on one line, read as YAML when it is valid YAML. */
function lineValue(raw) {
    const parsed = parseYaml(`v: ${raw}`);
    if (isRecord(parsed) && 'v' in parsed)
        return parsed['v'];
    // Not valid YAML (e.g. "a: b" inside the value): the raw text minus a trailing comment.
    const comment = raw.search(/[ \t]#/);
    return (comment >= 0 ? raw.slice(0, comment) : raw).trim();
}
/** Bare `key: value` lines for the report keys anywhere in the text; the last occurrence wins. */
function parseReportLines(text) {
    const fields = {};
    let found = false;
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i] ?? '';
        const m = KEY_LINE.exec(line);
        if (!m)
            continue;
        const key = (m[2] ?? '').toLowerCase();
        const raw = (m[3] ?? '').trim();
        let value;
        if (raw !== '' && !raw.startsWith('#')) {
            value = lineValue(raw);
        }
        else {
            // `key:` alone: an indented block (e.g. a YAML list) may follow.
            const keyIndent = indentOf(line);
            const body = [];
            let j = i + 1;
            for (; j < lines.length; j++) {
                const next = lines[j] ?? '';
                if (next.trim() === '')
                    break;
                const ind = indentOf(next);
                if (ind > keyIndent || (ind === keyIndent && /^[ \t]*-[ \t]/.test(next)))
                    body.push(next);
                else
                    break;
            }
            if (body.length > 0) {
                const parsed = parseYaml(`v:\n${dedent(body)
                    .split('\n')
                    .map((l) => `  ${l}`)
                    .join('\n')}`);
                value = isRecord(parsed) ? parsed['v'] : body.map((l) => l.trim()).join(' ');
                i = j - 1;
            }
            else {
                value = null;
            }
        }
        fields[key] = value;
        found = true;
    }
    return found ? fields : undefined;
}
const YAML_LANGS = new Set(['', 'yaml', 'yml']);
/**
 * The report block in an agent's final message: the last fenced YAML block
 * (```yaml or bare ```) holding one of the report keys, at top level or nested
 * under a top-level key such as IMPLEMENTATION_COMPLETE; otherwise bare
 * `key: value` lines anywhere in the text. Undefined when there is none.
 */
function parseReportBlock(text) {
    try {
        if (typeof text !== 'string' || text === '')
            return undefined;
        const blocks = fencedBlocks(text).filter((b) => YAML_LANGS.has(b.lang));
        for (let i = blocks.length - 1; i >= 0; i--) {
            const content = blocks[i]?.content ?? '';
            const mapping = findReportMapping(parseYaml(content));
            if (mapping)
                return toReportBlock(mapping);
            const fromLines = parseReportLines(content);
            if (fromLines)
                return toReportBlock(fromLines);
        }
        const fromText = parseReportLines(text);
        return fromText ? toReportBlock(fromText) : undefined;
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: external "node:perf_hooks"
const external_node_perf_hooks_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");
;// CONCATENATED MODULE: ./src/agents/lines.ts
const DEFAULT_MAX_LINE_BYTES = 16 * 1024;
/**
 * Splits a byte stream into lines incrementally. Works on bytes (a `\n` byte
 * never occurs inside a multibyte UTF-8 sequence) and decodes only whole lines,
 * or pieces cut on a character boundary, so characters split across chunks
 * decode correctly. A line longer than maxLineBytes comes out as successive
 * pieces of at most maxLineBytes, so at most ~maxLineBytes is ever held.
 */
class LineSplitter {
    maxLineBytes;
    pending = Buffer.alloc(0);
    /** The last piece emitted was cut: the next one continues the same line. */
    midLine = false;
    constructor(maxLineBytes = DEFAULT_MAX_LINE_BYTES) {
        if (!Number.isFinite(maxLineBytes) || maxLineBytes < 4) {
            throw new RangeError(`LineSplitter: maxLineBytes must be >= 4, got ${maxLineBytes}`);
        }
        this.maxLineBytes = Math.floor(maxLineBytes);
    }
    /** Complete lines (without `\n` or a trailing `\r`), and pieces of overlong lines. */
    push(chunk) {
        const out = [];
        this.pushEach(chunk, (text) => out.push(text));
        return out;
    }
    /** Whatever is left after the last newline (empty when nothing is). */
    flush() {
        const out = [];
        this.flushEach((text) => out.push(text));
        return out;
    }
    /** As `push`, saying which edges of each piece are cuts inside one line. */
    pushPieces(chunk) {
        const out = [];
        this.pushEach(chunk, (text, cutBefore, cutAfter) => out.push({ text, cutBefore, cutAfter }));
        return out;
    }
    /** As `flush`, with the cut edges. */
    flushPieces() {
        const out = [];
        this.flushEach((text, cutBefore, cutAfter) => out.push({ text, cutBefore, cutAfter }));
        return out;
    }
    /** The streaming form: each piece goes to `emit` as it is found (no arrays, no objects per line). */
    pushEach(chunk, emit) {
        let start = 0;
        for (;;) {
            const nl = chunk.indexOf(0x0a, start);
            if (nl === -1)
                break;
            const part = chunk.subarray(start, nl);
            const line = this.pending.length > 0 ? Buffer.concat([this.pending, part]) : part;
            this.pending = Buffer.alloc(0);
            this.emitLine(line, emit);
            start = nl + 1;
        }
        const rest = chunk.subarray(start);
        if (rest.length > 0) {
            if (this.pending.length > 0 && this.pending.length + rest.length > this.maxLineBytes) {
                // The line is overlong anyway: what is held goes out as a piece of its own rather than
                // being copied together with the new chunk (only an incomplete character is kept back).
                const keep = incompleteUtf8Tail(this.pending);
                if (this.pending.length > keep)
                    this.emit(emit, this.pending.subarray(0, this.pending.length - keep).toString('utf8'), true);
                this.pending = keep > 0 ? Buffer.concat([this.pending.subarray(this.pending.length - keep), rest]) : rest;
            }
            else {
                // A view, not a copy: at most one chunk (a pipe read, 64 KiB) stays referenced.
                this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, rest]) : rest;
            }
            this.drainOverlong(emit);
        }
    }
    /** The streaming form of `flush`. */
    flushEach(emit) {
        if (this.pending.length > 0) {
            const line = this.pending;
            this.pending = Buffer.alloc(0);
            this.emitLine(line, emit);
        }
    }
    emit(out, text, cutAfter) {
        const cutBefore = this.midLine;
        this.midLine = cutAfter;
        out(text, cutBefore, cutAfter);
    }
    emitLine(line, out) {
        let bytes = line;
        // Overlong complete line: emit the leading pieces first.
        while (bytes.length > this.maxLineBytes) {
            const cut = this.cutPoint(bytes);
            this.emit(out, bytes.subarray(0, cut).toString('utf8'), true);
            bytes = bytes.subarray(cut);
        }
        let end = bytes.length;
        if (end > 0 && bytes[end - 1] === 0x0d)
            end--;
        this.emit(out, bytes.subarray(0, end).toString('utf8'), false);
    }
    drainOverlong(out) {
        if (this.pending.length <= this.maxLineBytes)
            return;
        let bytes = this.pending;
        while (bytes.length > this.maxLineBytes) {
            const cut = this.cutPoint(bytes);
            this.emit(out, bytes.subarray(0, cut).toString('utf8'), true);
            bytes = bytes.subarray(cut);
        }
        this.pending = bytes;
    }
    /** Where to cut `bytes` (longer than maxLineBytes) so no character is split. */
    cutPoint(bytes) {
        let cut = this.maxLineBytes;
        // Back off while the byte at the cut is a continuation byte (10xxxxxx).
        let back = 0;
        while (back < 3 && cut > 1 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) {
            cut--;
            back++;
        }
        // Not valid UTF-8 there anyway: cut at the limit.
        if (((bytes[cut] ?? 0) & 0xc0) === 0x80)
            cut = this.maxLineBytes;
        return cut;
    }
}
/** How many bytes at the end of `buf` start a UTF-8 character that is not complete yet (0-3). */
function incompleteUtf8Tail(buf) {
    for (let back = 1; back <= Math.min(3, buf.length); back++) {
        const byte = buf[buf.length - back];
        if ((byte & 0xc0) === 0x80)
            continue; // a continuation byte: look further back
        const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

;// CONCATENATED MODULE: ./src/agents/tail.ts
/**
 * A bounded tail of a byte stream: keeps the last `maxBytes` bytes in a fixed
 * ring buffer, so memory stays at maxBytes whatever (and however much) is pushed.
 */
class TailBuffer {
    maxBytes;
    /** Every byte ever pushed, including those no longer held. */
    totalBytes = 0;
    ring;
    /** Next write position in the ring. */
    pos = 0;
    constructor(maxBytes) {
        if (!Number.isFinite(maxBytes) || maxBytes < 0)
            throw new RangeError(`TailBuffer: bad maxBytes ${maxBytes}`);
        this.maxBytes = Math.floor(maxBytes);
    }
    push(chunk) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        this.totalBytes += buf.length;
        const max = this.maxBytes;
        if (max === 0 || buf.length === 0)
            return;
        // Allocated on first use.
        if (!this.ring)
            this.ring = Buffer.alloc(max);
        const ring = this.ring;
        const src = buf.length > max ? buf.subarray(buf.length - max) : buf;
        const first = Math.min(src.length, max - this.pos);
        src.copy(ring, this.pos, 0, first);
        if (first < src.length)
            src.copy(ring, 0, first);
        this.pos = (this.pos + src.length) % max;
    }
    /** The bytes held, oldest first. */
    toBuffer() {
        const ring = this.ring;
        if (!ring)
            return Buffer.alloc(0);
        if (this.totalBytes < this.maxBytes)
            return Buffer.from(ring.subarray(0, this.totalBytes));
        return Buffer.concat([ring.subarray(this.pos), ring.subarray(0, this.pos)]);
    }
    /** The tail as UTF-8; when the start was cut off, a partial leading character is dropped. */
    toString() {
        let buf = this.toBuffer();
        if (this.totalBytes > this.maxBytes) {
            let skip = 0;
            // Continuation bytes are 10xxxxxx; a character has at most 3 of them.
            while (skip < 3 && skip < buf.length && ((buf[skip] ?? 0) & 0xc0) === 0x80)
                skip++;
            buf = buf.subarray(skip);
        }
        return buf.toString('utf8');
    }
}

;// CONCATENATED MODULE: ./src/agents/process.ts





const DEFAULT_KILL_GRACE_MS = 5000;
const DEFAULT_TAIL_BYTES = 64 * 1024;
/** After SIGKILL, how long to wait for the pipes to close before giving up on them. */
const PIPE_DRAIN_MS = 1000;
/** Send `sig` to the process group led by `pid`; false when the group is gone. */
function killGroup(pid, sig) {
    try {
        process.kill(-pid, sig);
        return true;
    }
    catch {
        // ESRCH: nothing left in the group. EPERM cannot happen for our own children.
        return false;
    }
}
function describeSpawnError(err, req) {
    if (err.code === 'ENOENT' && !(0,external_node_fs_namespaceObject.existsSync)(req.cwd))
        return `working directory does not exist: ${req.cwd}`;
    if (err.code === 'ENOENT')
        return `command not found: ${req.shell ? '/bin/sh' : req.command}`;
    return err.message || String(err);
}
/**
 * Run a command in its own process group, streaming its output line by line into
 * `onLine` and two bounded tails. Never rejects: a spawn failure resolves with `spawnError`.
 */
function runProcess(req) {
    const started = external_node_perf_hooks_namespaceObject.performance.now();
    const killGraceMs = req.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const tailBytes = req.tailBytes ?? DEFAULT_TAIL_BYTES;
    const tail = new TailBuffer(tailBytes);
    const stderrTail = new TailBuffer(tailBytes);
    const elapsed = () => external_node_perf_hooks_namespaceObject.performance.now() - started;
    const base = {
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: false,
        durationMs: 0,
        tail: '',
        stderrTail: '',
        bytes: 0,
    };
    if (req.signal?.aborted) {
        return Promise.resolve({ ...base, aborted: true, durationMs: elapsed() });
    }
    return new Promise((resolve) => {
        const file = req.shell ? '/bin/sh' : req.command;
        const argv = req.shell ? ['-c', req.command, 'sh', ...(req.args ?? [])] : (req.args ?? []);
        let child;
        try {
            child = (0,external_node_child_process_namespaceObject.spawn)(file, argv, {
                cwd: req.cwd,
                env: req.env ?? process.env,
                detached: true,
                stdio: ['pipe', 'pipe', 'pipe'],
                windowsHide: true,
            });
        }
        catch (err) {
            resolve({ ...base, durationMs: elapsed(), spawnError: describeSpawnError(err, req) });
            return;
        }
        let settled = false;
        let timedOut = false;
        let aborted = false;
        let exitCode = null;
        let exitSignal = null;
        let bytes = 0;
        const timers = new Set();
        const later = (ms, fn) => {
            const t = setTimeout(() => {
                timers.delete(t);
                fn();
            }, ms);
            timers.add(t);
        };
        const splitters = { stdout: new LineSplitter(req.maxLineBytes), stderr: new LineSplitter(req.maxLineBytes) };
        const emitters = {
            stdout: (line, cutBefore, cutAfter) => deliver(line, 'stdout', cutBefore, cutAfter),
            stderr: (line, cutBefore, cutAfter) => deliver(line, 'stderr', cutBefore, cutAfter),
        };
        function deliver(line, stream, cutBefore, cutAfter) {
            if (!req.onLine)
                return;
            try {
                if (cutBefore || cutAfter)
                    req.onLine(line, stream, { before: cutBefore, after: cutAfter });
                else
                    req.onLine(line, stream);
            }
            catch {
                // A faulty listener must not break the stream.
            }
        }
        const consume = (stream, name) => {
            if (!stream)
                return;
            stream.on('data', (chunk) => {
                bytes += chunk.length;
                // The tails take the raw bytes (copied into their rings): no per-line allocation.
                tail.push(chunk);
                if (name === 'stderr')
                    stderrTail.push(chunk);
                splitters[name].pushEach(chunk, emitters[name]);
            });
            stream.on('end', () => splitters[name].flushEach(emitters[name]));
            stream.on('error', () => {
                /* the pipe broke; 'close' still follows */
            });
        };
        consume(child.stdout, 'stdout');
        consume(child.stderr, 'stderr');
        const finish = (spawnError) => {
            if (settled)
                return;
            settled = true;
            for (const t of timers)
                clearTimeout(t);
            timers.clear();
            req.signal?.removeEventListener('abort', onAbort);
            splitters.stdout.flushEach(emitters.stdout);
            splitters.stderr.flushEach(emitters.stderr);
            const result = {
                exitCode,
                signal: exitSignal,
                timedOut,
                aborted,
                durationMs: elapsed(),
                tail: tail.toString(),
                stderrTail: stderrTail.toString(),
                bytes,
            };
            if (spawnError !== undefined)
                result.spawnError = spawnError;
            resolve(result);
        };
        /** SIGTERM the group now, SIGKILL it after the grace period if anything is left. */
        let terminating = false;
        const terminate = () => {
            const pid = child.pid;
            if (terminating || pid === undefined)
                return;
            terminating = true;
            killGroup(pid, 'SIGTERM');
            later(killGraceMs, () => {
                if (killGroup(pid, 0))
                    killGroup(pid, 'SIGKILL');
                // Something outside the group (setsid) may still hold our pipes: stop waiting on them.
                later(PIPE_DRAIN_MS, () => {
                    child.stdout?.destroy();
                    child.stderr?.destroy();
                    if (child.exitCode !== null || child.signalCode !== null)
                        finish();
                });
            });
        };
        function onAbort() {
            // Once the child has exited on its own, an abort changes nothing.
            if (settled || exitCode !== null || exitSignal !== null)
                return;
            aborted = true;
            terminate();
        }
        child.on('error', (err) => {
            if (child.pid === undefined) {
                finish(describeSpawnError(err, req));
            }
            // Otherwise a kill or pipe error on a running child: 'close' still comes.
        });
        child.on('exit', (code, sig) => {
            exitCode = code;
            exitSignal = sig;
            // Stray background processes would keep the pipes open and hang us.
            terminate();
        });
        child.on('close', (code, sig) => {
            if (exitCode === null && exitSignal === null) {
                exitCode = code;
                exitSignal = sig;
            }
            finish();
        });
        if (child.pid === undefined) {
            // Spawn failed; 'error' follows on the next tick.
            return;
        }
        if (req.timeoutMs !== undefined && Number.isFinite(req.timeoutMs) && req.timeoutMs > 0) {
            later(req.timeoutMs, () => {
                if (settled || terminating)
                    return;
                timedOut = true;
                terminate();
            });
        }
        req.signal?.addEventListener('abort', onAbort, { once: true });
        const stdin = child.stdin;
        if (stdin) {
            stdin.on('error', () => {
                /* EPIPE: the child does not read its stdin */
            });
            stdin.end(req.stdin ?? '');
        }
    });
}

;// CONCATENATED MODULE: ./src/agents/streamLog.ts
/** The agent's full output stream, kept per iteration under <state-dir>/logs/, size-capped and rotated. */


const LOG_MAX_BYTES = 32 * 1024 * 1024;
const LOGS_KEPT = 50;
/** Appends lines synchronously (memory stays flat whatever the stream's size) until the cap. */
class StreamLog {
    file;
    maxBytes;
    fd;
    written = 0;
    capped = false;
    constructor(file, maxBytes = LOG_MAX_BYTES) {
        this.file = file;
        this.maxBytes = maxBytes;
        if (!file)
            return;
        try {
            (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(file), { recursive: true });
            this.fd = (0,external_node_fs_namespaceObject.openSync)(file, 'w');
        }
        catch {
            this.fd = undefined; // A log we cannot write must never stop the agent.
        }
    }
    write(line) {
        if (this.fd === undefined || this.capped)
            return;
        const bytes = Buffer.byteLength(line) + 1;
        if (this.written + bytes > this.maxBytes) {
            this.capped = true;
            (0,external_node_fs_namespaceObject.writeSync)(this.fd, `{"type":"agent_loop_log_truncated","after_bytes":${this.written}}\n`);
            return;
        }
        this.written += bytes;
        (0,external_node_fs_namespaceObject.writeSync)(this.fd, `${line}\n`);
    }
    close() {
        if (this.fd !== undefined)
            (0,external_node_fs_namespaceObject.closeSync)(this.fd);
        this.fd = undefined;
    }
}
/** Keeps the newest `keep` iteration-N.* logs in `dir` (by iteration number). */
async function pruneIterationLogs(dir, keep = LOGS_KEPT) {
    const names = await external_node_fs_namespaceObject.promises.readdir(dir).catch(() => []);
    const numbered = names
        .map((name) => ({ name, n: Number(/^iteration-(\d+)\./.exec(name)?.[1]) }))
        .filter((x) => Number.isFinite(x.n))
        .sort((a, b) => b.n - a.n);
    await Promise.all(numbered.slice(keep).map((x) => external_node_fs_namespaceObject.promises.rm(external_node_path_default().join(dir, x.name), { force: true })));
}

;// CONCATENATED MODULE: ./src/agents/streamingCli.ts
/**
 * What the claude and codex adapters share: run a CLI that prints one JSON event per line, feed
 * each stdout line to the adapter's parser (which says what to show), keep the raw stream in the
 * iteration's log and a tail of what was shown.
 */



/** One stream-json line may carry a whole file the agent read; longer lines arrive in pieces. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
async function runStreamingCli(input) {
    const { request, parser } = input;
    const log = new StreamLog(request.logFile);
    // What a person would call the agent's output: its messages and tool calls, and stderr.
    const shown = new TailBuffer(16 * 1024);
    const show = (line, stream, cut) => {
        shown.push(`${line}\n`);
        if (cut)
            request.onLine?.(line, stream, cut);
        else
            request.onLine?.(line, stream);
    };
    try {
        const process = await runProcess({
            command: input.command, args: input.args, cwd: request.cwd, env: input.env, stdin: request.prompt,
            timeoutMs: request.timeoutMs, signal: request.signal, killGraceMs: input.killGraceMs, maxLineBytes: MAX_LINE_BYTES,
            onLine: (line, stream, cut) => {
                if (stream === 'stderr')
                    return show(line, 'stderr', cut);
                log.write(line);
                for (const display of parser.push(line))
                    show(display, 'stdout');
            },
        });
        return { process, shown: shown.toString() };
    }
    finally {
        log.close();
    }
}
/**
 * A JSON event object from one line, or undefined. `ignored` counts lines that should have been
 * events and were not (garbage, partial lines); blank lines and non-object JSON are not counted.
 */
function parseEventLine(line, onIgnored) {
    if (!line.startsWith('{')) {
        if (line.trim() !== '')
            onIgnored();
        return undefined;
    }
    let event;
    try {
        event = JSON.parse(line);
    }
    catch {
        onIgnored();
        return undefined;
    }
    return typeof event === 'object' && event !== null && !Array.isArray(event) ? event : undefined;
}

;// CONCATENATED MODULE: ./src/agents/claudeStream.ts
/**
 * Incremental reader of `claude -p --output-format stream-json --verbose`: one line at a time,
 * keeping only what the outcome needs (session, last API retry, rate-limit reset, the result event)
 * so memory does not depend on the stream's size. Non-JSON lines, partial lines and unknown event
 * types are counted and otherwise ignored.
 */


const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v) => (typeof v === 'string' ? v : undefined);
class ClaudeStreamParser {
    cwd;
    state = { toolCalls: 0, ignoredLines: 0 };
    constructor(cwd) {
        this.cwd = cwd;
    }
    /** Feeds one line of stdout; returns the compact lines to show for it (tool calls, assistant text). */
    push(line) {
        // Tool results (type "user") can be megabytes and carry nothing the outcome needs: skip the parse.
        if (line.startsWith('{"type":"user"') || line.startsWith('{"type":"stream_event"'))
            return [];
        const event = parseEventLine(line, () => this.state.ignoredLines++);
        if (!event)
            return [];
        const sessionId = str(event.session_id);
        if (sessionId)
            this.state.sessionId = sessionId;
        switch (event.type) {
            case 'assistant':
                return this.assistant(event);
            case 'system':
                if (event.subtype === 'api_retry') {
                    this.state.lastRetry = { status: num(event.error_status), error: str(event.error), delayMs: num(event.retry_delay_ms) };
                }
                return [];
            case 'rate_limit_event': {
                const resets = findResetsAt(event);
                if (resets !== undefined)
                    this.state.rateLimitResetsAt = resets;
                return [];
            }
            case 'result':
                this.state.result = readResult(event);
                return [];
            default:
                return [];
        }
    }
    assistant(event) {
        const message = event.message;
        if (!isObject(message) || !Array.isArray(message.content))
            return [];
        const out = [];
        for (const block of message.content) {
            if (!isObject(block))
                continue;
            if (block.type === 'tool_use') {
                this.state.toolCalls++;
                out.push(`  ▸ ${describeToolUse(str(block.name) ?? 'tool', isObject(block.input) ? block.input : {}, this.cwd)}`);
            }
            else if (block.type === 'text') {
                const first = (str(block.text) ?? '').trim().split('\n')[0] ?? '';
                if (first)
                    out.push(`  ✎ ${clip(first, 160)}`);
            }
        }
        return out;
    }
}
function readResult(event) {
    const usage = isObject(event.usage) ? event.usage : undefined;
    const denials = event.permission_denials;
    const result = {
        subtype: str(event.subtype) ?? 'unknown',
        isError: event.is_error === true,
        apiErrorStatus: num(event.api_error_status) ?? null,
        // Errors (max turns, a session that cannot be resumed) come as an `errors` list without `result`.
        text: str(event.result) ?? (Array.isArray(event.errors) ? event.errors.filter((e) => typeof e === 'string').join('; ') : ''),
        permissionDenials: Array.isArray(denials) ? denials.length : 0,
    };
    const cost = num(event.total_cost_usd);
    if (cost !== undefined)
        result.costUsd = cost;
    const turns = num(event.num_turns);
    if (turns !== undefined)
        result.numTurns = turns;
    const session = str(event.session_id);
    if (session)
        result.sessionId = session;
    if (usage) {
        const input = (num(usage.input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
        result.usage = { input, output: num(usage.output_tokens) ?? 0 };
    }
    return result;
}
/** `resetsAt` anywhere in a rate_limit_event, as epoch ms (seconds are converted). */
function findResetsAt(event) {
    const stack = [event];
    while (stack.length > 0) {
        const v = stack.pop();
        if (!isObject(v))
            continue;
        const r = num(v.resetsAt) ?? num(v.resets_at);
        if (r !== undefined)
            return r < 1e12 ? r * 1000 : r;
        stack.push(...Object.values(v));
    }
    return undefined;
}
/** One line a person watching the log understands: "Bash: npm test", "Edit: src/parser.ts". */
function describeToolUse(name, input, cwd) {
    const rel = (p) => {
        const s = str(p);
        if (!s)
            return '';
        const r = external_node_path_default().isAbsolute(s) ? external_node_path_default().relative(cwd, s) : s;
        return r && !r.startsWith('..') ? r : s;
    };
    let detail;
    switch (name) {
        case 'Bash':
            detail = (str(input.command) ?? '').split('\n')[0] ?? '';
            break;
        case 'Read':
        case 'Write':
        case 'Edit':
        case 'MultiEdit':
        case 'NotebookEdit':
            detail = rel(input.file_path ?? input.notebook_path);
            break;
        case 'Grep':
            detail = `${str(input.pattern) ?? ''}${input.path ? ` in ${rel(input.path)}` : ''}`;
            break;
        case 'Glob':
            detail = str(input.pattern) ?? '';
            break;
        case 'WebFetch':
        case 'WebSearch':
            detail = str(input.url) ?? str(input.query) ?? '';
            break;
        case 'Task':
        case 'Agent':
            detail = str(input.description) ?? '';
            break;
        default:
            detail = Object.values(input).find((v) => typeof v === 'string') ?? '';
    }
    return detail ? `${name}: ${clip(detail.trim(), 120)}` : name;
}
const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

;// CONCATENATED MODULE: ./src/failure/classifyCommand.ts
const MAX_DETAIL_CHARS = 200;
/** Minutes with at most two decimals: 30, 0.5, 1.33. */
function formatMinutes(ms) {
    return String(Number((ms / 60_000).toFixed(2)));
}
/** The last non-blank line of a text, trimmed to 200 characters. */
function lastLine(text) {
    const lines = text.split(/\r?\n/);
    for (let i = lines.length - 1; i >= 0; i--) {
        const line = (lines[i] ?? '').trim();
        if (line !== '')
            return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS - 1)}…` : line;
    }
    return '';
}
/**
 * What a finished `--agent command` run means for the loop. Pure.
 * Interrupted runs (spawn failure, timeout, abort) are classified before the exit
 * code: a command that traps SIGTERM and exits 0 after a timeout still timed out.
 * `timeoutMs` (the configured limit) is used for the message; durationMs otherwise.
 */
function classifyCommandOutcome(result, timeoutMs) {
    if (result.spawnError !== undefined) {
        return { class: 'permanent', reason: 'spawn_failed', message: `could not start the agent command: ${result.spawnError}` };
    }
    if (result.timedOut) {
        return {
            class: 'transient',
            reason: 'timeout',
            message: `timed out after ${formatMinutes(timeoutMs ?? result.durationMs)} min`,
        };
    }
    if (result.aborted) {
        return { class: 'transient', reason: 'killed', message: 'aborted: the agent command was stopped' };
    }
    if (result.exitCode === 0)
        return undefined;
    if (result.signal !== null) {
        return { class: 'transient', reason: 'killed', message: `killed by signal ${result.signal}` };
    }
    if (result.exitCode === 127) {
        return {
            class: 'permanent',
            reason: 'not_found',
            message: 'exited with code 127: command not found, check --agent-command',
        };
    }
    if (result.exitCode === 126) {
        return {
            class: 'permanent',
            reason: 'not_executable',
            message: 'exited with code 126: command not executable, check --agent-command and file permissions',
        };
    }
    if (result.exitCode === null) {
        return { class: 'transient', reason: 'crashed', message: 'ended without an exit code or signal' };
    }
    const detail = lastLine(result.stderrTail);
    return {
        class: 'transient',
        reason: 'exit_code',
        message: detail ? `exited with code ${result.exitCode}: ${detail}` : `exited with code ${result.exitCode}`,
    };
}

;// CONCATENATED MODULE: ./src/failure/classifyClaude.ts

function classifyClaudeOutcome({ state, process, timeoutMs, now, command = 'claude' }) {
    // Our own limits first: a run we killed is a timeout whatever it printed.
    if (process.spawnError || process.timedOut || process.aborted)
        return classifyCommandOutcome(process, timeoutMs);
    const result = state.result;
    if (!result) {
        if (process.exitCode === 127) {
            return { class: 'permanent', reason: 'not_found', message: `${command} not found: install Claude Code (npm install -g @anthropic-ai/claude-code) or put it on PATH` };
        }
        const stderr = lastLines(process.stderrTail, 3);
        const how = process.exitCode !== null ? `exited with code ${process.exitCode}` : `was killed by ${process.signal ?? 'a signal'}`;
        return { class: 'transient', reason: 'crashed', message: `Claude Code ${how} without a result${stderr ? `: ${stderr}` : ''}` };
    }
    if (result.subtype === 'success' && !result.isError)
        return undefined;
    const text = classifyClaude_clip(result.text.replace(/\s+/g, ' ').trim(), 300);
    switch (result.subtype) {
        case 'error_max_turns':
            return { class: 'permanent', reason: 'max_turns', message: `stopped at the maximum number of turns (${result.numTurns ?? '?'} turns)` };
        case 'error_max_budget_usd':
            return { class: 'permanent', reason: 'budget', message: `stopped at its budget (${result.costUsd ?? '?'} USD spent)` };
        case 'error_during_execution':
            return { class: 'transient', reason: 'execution_error', message: `error during execution${text ? `: ${text}` : ''}` };
    }
    const status = result.apiErrorStatus ?? state.lastRetry?.status ?? null;
    if (status === 429) {
        const failure = { class: 'transient', reason: 'rate_limit', message: `rate limited (HTTP 429): ${text}` };
        const wait = state.rateLimitResetsAt !== undefined ? state.rateLimitResetsAt - now : state.lastRetry?.delayMs;
        if (wait !== undefined && wait > 0)
            failure.retryAfterMs = Math.ceil(wait);
        return failure;
    }
    if (status === 529)
        return { class: 'transient', reason: 'overloaded', message: `the API is overloaded (HTTP 529): ${text}` };
    if (status !== null && status >= 500)
        return { class: 'transient', reason: 'server_error', message: `API server error (HTTP ${status}): ${text}` };
    if (status === 401 || status === 403) {
        return { class: 'permanent', reason: 'auth', message: `authentication failed (HTTP ${status}): ${text}. Check ANTHROPIC_API_KEY (or the CLI's login)` };
    }
    if (status === 402)
        return { class: 'permanent', reason: 'billing', message: `billing problem (HTTP 402): ${text}` };
    if (status !== null && status >= 400) {
        const named = /prompt is too long/i.test(result.text) ? 'prompt is too long' : 'invalid request';
        return { class: 'permanent', reason: 'invalid_request', message: `${named} (HTTP ${status}): ${text}` };
    }
    if (/connection|network|ECONN|socket|fetch failed|timed? ?out/i.test(result.text)) {
        return { class: 'transient', reason: 'network', message: `network error: ${text}` };
    }
    return { class: 'transient', reason: 'agent_error', message: `Claude Code reported an error (${result.subtype}): ${text || 'no message'}` };
}
function lastLines(text, n) {
    return classifyClaude_clip(text.trim().split('\n').slice(-n).join(' / '), 300);
}
const classifyClaude_clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

;// CONCATENATED MODULE: ./src/agents/claude.ts
/** The `claude` agent: Claude Code in print mode, its stream-json read line by line. */




class ClaudeAgent {
    options;
    displayName = 'Claude';
    constructor(options) {
        this.options = options;
    }
    /** The argument list for one run (the prompt goes on stdin). */
    args(resumeSessionId) {
        const o = this.options;
        return [
            '-p', '--output-format', 'stream-json', '--verbose',
            ...(o.model ? ['--model', o.model] : []),
            ...(o.maxTurns !== undefined ? ['--max-turns', String(o.maxTurns)] : []),
            '--permission-mode', o.permissionMode,
            ...(o.allowedTools ? ['--allowedTools', o.allowedTools] : []),
            ...(resumeSessionId ? ['--resume', resumeSessionId] : []),
            ...(o.extraArgs ?? []),
        ];
    }
    async run(request) {
        const first = await this.once(request, request.resumeSessionId);
        // A session that cannot be resumed (expired, another machine) must not cost the iteration.
        if (request.resumeSessionId && !first.ok && !request.signal?.aborted && /No conversation found/i.test(first.outputTail)) {
            request.onLine?.(`  ↻ could not resume session ${request.resumeSessionId}; starting a fresh one`, 'stderr');
            const fresh = await this.once(request, undefined);
            return { ...fresh, durationMs: fresh.durationMs + first.durationMs };
        }
        return first;
    }
    async once(request, resumeSessionId) {
        const command = this.options.command ?? 'claude';
        const parser = new ClaudeStreamParser(request.cwd);
        const { process: proc, shown } = await runStreamingCli({
            command, args: this.args(resumeSessionId), request, parser, env: this.options.env, killGraceMs: this.options.killGraceMs,
        });
        const state = parser.state;
        const result = state.result;
        const failure = classifyClaudeOutcome({ state, process: proc, timeoutMs: request.timeoutMs, now: (this.options.now ?? Date.now)(), command });
        const text = result?.text ?? '';
        const agentResult = {
            ok: failure === undefined, exitCode: proc.exitCode, signal: proc.signal, durationMs: proc.durationMs,
            outputTail: `${shown}${text && !shown.includes(text) ? `${text}\n` : ''}`,
        };
        if (failure)
            agentResult.failure = failure;
        const report = !failure || !result?.isError ? parseReportBlock(text) : undefined;
        if (report)
            agentResult.report = report;
        if (result?.costUsd !== undefined)
            agentResult.costUsd = result.costUsd;
        if (result?.numTurns !== undefined)
            agentResult.turns = result.numTurns;
        if (result?.usage)
            agentResult.tokens = result.usage;
        if (result)
            agentResult.permissionDenials = result.permissionDenials;
        const sessionId = result?.sessionId ?? state.sessionId;
        if (sessionId)
            agentResult.sessionId = sessionId;
        return agentResult;
    }
}

;// CONCATENATED MODULE: ./src/agents/codexStream.ts
/**
 * Incremental reader of `codex exec --json` (JSONL events): thread.started, turn.started,
 * turn.completed (usage), turn.failed, item.started|updated|completed (agent_message,
 * command_execution, file_change, error, …) and top-level error. Keeps only what the outcome
 * needs; anything else is ignored.
 */


const codexStream_isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const codexStream_num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const codexStream_str = (v) => (typeof v === 'string' ? v : undefined);
const codexStream_clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
class CodexStreamParser {
    cwd;
    state = { warnings: [], turnsCompleted: 0, usage: { input: 0, output: 0 }, commands: 0, fileChanges: 0, ignoredLines: 0 };
    constructor(cwd) {
        this.cwd = cwd;
    }
    /** Feeds one line of stdout; returns the compact lines to show for it. */
    push(line) {
        const event = parseEventLine(line, () => this.state.ignoredLines++);
        if (!event)
            return [];
        const s = this.state;
        switch (event.type) {
            case 'thread.started':
                s.threadId = codexStream_str(event.thread_id) ?? s.threadId;
                return [];
            case 'turn.completed': {
                s.turnsCompleted++;
                s.fatalError = undefined; // the turn went through after all (errors before it were retried)
                const u = codexStream_isObject(event.usage) ? event.usage : {};
                s.usage = { input: s.usage.input + codexStream_num(u.input_tokens), output: s.usage.output + codexStream_num(u.output_tokens) };
                return [];
            }
            case 'turn.failed':
                s.fatalError = errorText(event.error) ?? 'turn failed';
                return [];
            case 'error': {
                const message = codexStream_str(event.message) ?? errorText(event.error) ?? 'error';
                // "Reconnecting... 2/5 (…)": the CLI retrying on its own, not the end of the run.
                if (/^Reconnecting\.\.\./.test(message)) {
                    s.warnings.push(message);
                    return [`  ↻ ${codexStream_clip(message, 160)}`];
                }
                s.fatalError = message;
                return [];
            }
            case 'item.started':
            case 'item.completed':
                return codexStream_isObject(event.item) ? this.item(event.item, event.type === 'item.completed') : [];
            default:
                return [];
        }
    }
    item(item, completed) {
        const s = this.state;
        switch (item.type) {
            case 'agent_message':
                if (!completed)
                    return [];
                s.lastMessage = codexStream_str(item.text) ?? s.lastMessage;
                return s.lastMessage ? [`  ✎ ${codexStream_clip(s.lastMessage.trim().split('\n')[0] ?? '', 160)}`] : [];
            case 'command_execution':
                if (completed)
                    return []; // shown when it starts; the end adds nothing a watcher needs
                s.commands++;
                return [`  ▸ Bash: ${codexStream_clip(unwrapShell(codexStream_str(item.command) ?? '').split('\n')[0] ?? '', 120)}`];
            case 'file_change': {
                if (!completed)
                    return [];
                const changes = Array.isArray(item.changes) ? item.changes.filter(codexStream_isObject) : [];
                s.fileChanges += changes.length;
                return changes.map((c) => `  ▸ ${verb(codexStream_str(c.kind))}: ${this.rel(codexStream_str(c.path) ?? '')}`);
            }
            case 'error':
                if (completed && codexStream_str(item.message))
                    s.warnings.push(codexStream_str(item.message));
                return [];
            default:
                return [];
        }
    }
    rel(p) {
        const r = external_node_path_default().isAbsolute(p) ? external_node_path_default().relative(this.cwd, p) : p;
        return r && !r.startsWith('..') ? r : p;
    }
}
function errorText(v) {
    if (typeof v === 'string')
        return v;
    if (codexStream_isObject(v))
        return codexStream_str(v.message);
    return undefined;
}
function verb(kind) {
    return kind === 'add' ? 'Write' : kind === 'delete' ? 'Delete' : 'Edit';
}
/** Codex runs every command as `/bin/bash -lc '<command>'`: show the command itself. */
function unwrapShell(command) {
    const m = /^(?:\/usr)?\/bin\/(?:ba|z)?sh -l?c (['"])([\s\S]*)\1$/.exec(command.trim());
    if (!m)
        return command;
    return m[1] === "'" ? (m[2] ?? '').replace(/'\\''/g, "'") : (m[2] ?? '').replace(/\\(["\\$`])/g, '$1');
}

;// CONCATENATED MODULE: ./src/failure/classifyCodex.ts

function classifyCodexOutcome(input) {
    const { state, process, timeoutMs, command = 'codex' } = input;
    if (process.spawnError || process.timedOut || process.aborted)
        return classifyCommandOutcome(process, timeoutMs);
    const stderr = process.stderrTail.trim().split('\n').slice(-3).join(' / ');
    const error = state.fatalError ?? (process.exitCode !== 0 ? lastErrorLine(process.stderrTail) : undefined);
    if (!error) {
        if (process.exitCode === 0)
            return undefined;
        if (process.exitCode === 127)
            return { class: 'permanent', reason: 'not_found', message: `${command} not found: install the Codex CLI (npm install -g @openai/codex) or put it on PATH` };
        return { class: 'transient', reason: 'crashed', message: `Codex exited with code ${process.exitCode ?? process.signal}${stderr ? `: ${classifyCodex_clip(stderr, 300)}` : ''}` };
    }
    const text = classifyCodex_clip(error.replace(/\s+/g, ' ').trim(), 300);
    const status = httpStatus(error);
    if (status === 429 || /rate limit|too many requests|usage limit/i.test(error)) {
        const failure = { class: 'transient', reason: 'rate_limit', message: `rate limited${status ? ` (HTTP ${status})` : ''}: ${text}` };
        const wait = retryAfterMs(error);
        if (wait !== undefined)
            failure.retryAfterMs = wait;
        return failure;
    }
    if (status === 401 || status === 403 || /unauthori[sz]ed|invalid api key|authentication/i.test(error)) {
        return { class: 'permanent', reason: 'auth', message: `authentication failed${status ? ` (HTTP ${status})` : ''}: ${text}. Check OPENAI_API_KEY / CODEX_API_KEY (or codex login)` };
    }
    if (status === 402 || /billing|quota|insufficient_quota/i.test(error))
        return { class: 'permanent', reason: 'billing', message: `billing problem: ${text}` };
    if (/high demand|overloaded|temporar(il)?y unavailable/i.test(error))
        return { class: 'transient', reason: 'overloaded', message: `the API is overloaded${status ? ` (HTTP ${status})` : ''}: ${text}` };
    if (/context window|context_length_exceeded|too long/i.test(error))
        return { class: 'permanent', reason: 'invalid_request', message: `prompt is too long: ${text}` };
    if (/invalid_request_error|invalid_value/.test(error))
        return { class: 'permanent', reason: 'invalid_request', message: `invalid request: ${text}` };
    if (status !== undefined && status >= 500)
        return { class: 'transient', reason: status === 529 || status === 503 ? 'overloaded' : 'server_error', message: `API server error (HTTP ${status}): ${text}` };
    if (status !== undefined && status >= 400) {
        const named = /context|too long|maximum context/i.test(error) ? 'prompt is too long' : 'invalid request';
        return { class: 'permanent', reason: 'invalid_request', message: `${named} (HTTP ${status}): ${text}` };
    }
    if (/stream disconnected|connection|network|timed? ?out|ECONN|error sending request/i.test(error))
        return { class: 'transient', reason: 'network', message: `network error: ${text}` };
    return { class: 'transient', reason: 'agent_error', message: `Codex reported an error: ${text}` };
}
/** The HTTP status in a Codex error text, if any: "status 429", "status: 500", "401 Unauthorized". */
function httpStatus(text) {
    const m = /status:?\s*(\d{3})\b/i.exec(text) ?? /\b([45]\d\d) (?:[A-Z][a-z]+)/.exec(text);
    return m ? Number(m[1]) : undefined;
}
/** "try again in 20s", "retry after 1.5 seconds", "Retry-After: 3", "try again in 2 days 3 hours", "1h 30m". */
function retryAfterMs(text) {
    const m = /(?:try again in|retry[- ]after:?)\s*((?:\d+(?:\.\d+)?\s*[a-z]*[\s,]*(?:and\s+)?)+)/i.exec(text);
    if (!m)
        return undefined;
    let total = 0;
    let found = false;
    for (const part of (m[1] ?? '').matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)/gi)) {
        const unit = MS_PER_UNIT.find(([re]) => re.test(part[2] ?? ''));
        if (part[2] && !unit)
            break; // a word that is not a unit ends the duration
        total += Number(part[1]) * (unit ? unit[1] : 1000);
        found = true;
    }
    return found ? Math.ceil(total) : undefined;
}
const MS_PER_UNIT = [
    [/^(ms|milliseconds?)$/i, 1],
    [/^(s|secs?|seconds?)$/i, 1000],
    [/^(m|mins?|minutes?)$/i, 60_000],
    [/^(h|hrs?|hours?)$/i, 3_600_000],
    [/^(d|days?)$/i, 86_400_000],
];
function lastErrorLine(stderr) {
    const lines = stderr.trim().split('\n').filter((l) => /error/i.test(l));
    return lines.pop();
}
const classifyCodex_clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

;// CONCATENATED MODULE: ./src/agents/codex.ts
/** The `codex` agent: the Codex CLI's non-interactive mode, its JSONL events read line by line. */




class CodexAgent {
    options;
    displayName = 'Codex';
    constructor(options) {
        this.options = options;
    }
    /** `codex exec --json … -`: the prompt comes on stdin. */
    args() {
        const o = this.options;
        return ['exec', '--json', '--skip-git-repo-check', '--sandbox', o.sandbox, ...(o.model ? ['--model', o.model] : []), ...(o.extraArgs ?? []), '-'];
    }
    async run(request) {
        const command = this.options.command ?? 'codex';
        const parser = new CodexStreamParser(request.cwd);
        const { process: proc, shown } = await runStreamingCli({
            command, args: this.args(), request, parser, env: this.options.env, killGraceMs: this.options.killGraceMs,
        });
        const state = parser.state;
        const failure = classifyCodexOutcome({ state, process: proc, timeoutMs: request.timeoutMs, command });
        const result = {
            ok: failure === undefined, exitCode: proc.exitCode, signal: proc.signal, durationMs: proc.durationMs,
            outputTail: `${shown}${state.fatalError ? `${state.fatalError}\n` : ''}`,
            tokens: state.usage, turns: state.turnsCompleted,
        };
        if (failure)
            result.failure = failure;
        const report = state.lastMessage ? parseReportBlock(state.lastMessage) : undefined;
        if (report)
            result.report = report;
        if (state.threadId)
            result.sessionId = state.threadId;
        return result;
    }
}

;// CONCATENATED MODULE: ./src/agents/command.ts



/** The environment the command sees: the base env plus the AGENT_LOOP_* variables. */
function commandEnv(base, request) {
    return {
        ...base,
        AGENT_LOOP_PROMPT_FILE: request.promptFile,
        AGENT_LOOP_ISSUE_IDS: request.issueIds.join(','),
        AGENT_LOOP_ITERATION: String(request.iteration),
    };
}
/** The AgentResult for a finished run. Pure. */
function commandResult(result, timeoutMs) {
    const failure = classifyCommandOutcome(result, timeoutMs);
    const out = {
        ok: failure === undefined,
        exitCode: result.exitCode,
        signal: result.signal,
        durationMs: result.durationMs,
        outputTail: result.tail,
    };
    if (failure)
        out.failure = failure;
    const report = parseReportBlock(result.tail);
    if (report)
        out.report = report;
    return out;
}
/** `--agent command --agent-command "CMD"`: any command, prompt on stdin and in $AGENT_LOOP_PROMPT_FILE. */
class CommandAgent {
    displayName;
    command;
    env;
    killGraceMs;
    tailBytes;
    constructor(options) {
        this.command = options.command;
        this.displayName = options.displayName ?? 'Command';
        this.env = options.env ?? process.env;
        this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
        this.tailBytes = options.tailBytes;
    }
    async run(request) {
        const result = await runProcess({
            command: this.command,
            shell: true,
            cwd: request.cwd,
            env: commandEnv(this.env, request),
            stdin: request.prompt,
            timeoutMs: request.timeoutMs,
            killGraceMs: this.killGraceMs,
            ...(this.tailBytes !== undefined ? { tailBytes: this.tailBytes } : {}),
            ...(request.onLine ? { onLine: request.onLine } : {}),
            ...(request.signal ? { signal: request.signal } : {}),
        });
        return commandResult(result, request.timeoutMs);
    }
}

;// CONCATENATED MODULE: ./src/agents/index.ts




function createAgent(options, env) {
    const extraArgs = options.agentArgs ? splitArgs(options.agentArgs) : [];
    switch (options.agent) {
        case 'command':
            return new CommandAgent({ command: options.agentCommand, env });
        case 'claude':
            return new ClaudeAgent({
                model: options.agentModel, maxTurns: options.agentMaxTurns, permissionMode: options.agentPermissionMode,
                allowedTools: options.agentAllowedTools, extraArgs, env,
            });
        case 'codex':
            return new CodexAgent({ model: options.agentModel, sandbox: options.agentSandbox, extraArgs, env });
    }
}

;// CONCATENATED MODULE: ./src/git/git.ts
/** The git operations the loop needs, behind one interface; every call goes through one execGit. */



class GitError extends Error {
    args;
    code;
    stderr;
    constructor(args, code, stderr) {
        super(`git ${args.join(' ')} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
        this.args = args;
        this.code = code;
        this.stderr = stderr;
        this.name = 'GitError';
    }
}
function execGitIn(cwd, env) {
    return (args) => new Promise((resolve) => {
        (0,external_node_child_process_namespaceObject.execFile)('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? Number(error.code) : 1) : 0;
            resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        });
    });
}
/** A Git for `cwd`, or undefined when `cwd` is not inside a work tree (the loop then works in place). */
async function openGit(cwd, env) {
    const raw = execGitIn(cwd, env);
    const top = await raw(['rev-parse', '--show-toplevel']);
    if (top.code !== 0)
        return undefined;
    const topLevel = top.stdout.trim();
    const hasIdentity = (await raw(['config', 'user.email'])).stdout.trim() !== '';
    // Commits must not fail on a machine without a git identity (CI runners, containers).
    const identity = hasIdentity ? [] : ['-c', 'user.name=agent-loop', '-c', 'user.email=agent-loop@users.noreply.github.com'];
    const exec = execGitIn(topLevel, env);
    const git = async (...args) => {
        const r = await exec([...identity, ...args]);
        if (r.code !== 0)
            throw new GitError(args, r.code, r.stderr || r.stdout);
        return r.stdout.trim();
    };
    const tryGit = async (...args) => (await exec([...identity, ...args])).code === 0;
    return {
        topLevel,
        async currentRef() {
            const branch = await exec(['symbolic-ref', '--quiet', '--short', 'HEAD']);
            return branch.code === 0 ? branch.stdout.trim() : git('rev-parse', 'HEAD');
        },
        branchExists: (branch) => tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`),
        async switchToBranch(branch, from) {
            if (await tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`))
                await git('checkout', '--quiet', branch);
            else
                await git('checkout', '--quiet', '-b', branch, from);
        },
        async checkout(ref) {
            await git('checkout', '--quiet', ref);
        },
        async commitAll(message, options = {}) {
            await git('add', '--all');
            if (await tryGit('diff', '--cached', '--quiet')) {
                if (!options.allowEmpty)
                    return false;
                await git('commit', '--quiet', '--no-verify', '--allow-empty', '-m', message);
                return true;
            }
            await git('commit', '--quiet', '--no-verify', '-m', message);
            return true;
        },
        head: () => git('rev-parse', 'HEAD'),
        async resetHard(ref) {
            await git('reset', '--quiet', '--hard', ref);
            await git('clean', '--quiet', '-fd');
        },
        async changedFiles(base) {
            await git('add', '--all', '--intent-to-add');
            const out = await git('diff', '--name-only', base);
            return out.split('\n').filter((l) => l !== '');
        },
        async merge(branch, message) {
            await git('merge', '--quiet', '--no-ff', '--no-edit', '-m', message, branch);
        },
        async hasWorkSince(base) {
            if ((await git('status', '--porcelain')) !== '')
                return true;
            return Number(await git('rev-list', '--count', `${base}..HEAD`)) > 0;
        },
        async deleteBranch(branch) {
            await git('branch', '--quiet', '-D', branch);
        },
        async fetchBranch(remote, branch) {
            const listed = await exec(['ls-remote', '--exit-code', '--heads', remote, `refs/heads/${branch}`]);
            if (listed.code === 2)
                return false; // --exit-code: 2 is "no matching ref"
            if (listed.code !== 0)
                throw new GitError(['ls-remote', remote, branch], listed.code, listed.stderr);
            await git('fetch', '--quiet', '--no-tags', remote, `refs/heads/${branch}:refs/heads/${branch}`);
            return true;
        },
        async push(remote, branch) {
            await git('push', '--quiet', '--no-verify', remote, `refs/heads/${branch}:refs/heads/${branch}`);
        },
        async exclude(relativePathOrPattern) {
            const gitDir = external_node_path_default().resolve(topLevel, await git('rev-parse', '--git-common-dir'));
            const file = external_node_path_default().join(gitDir, 'info', 'exclude');
            const line = relativePathOrPattern.includes('*') ? relativePathOrPattern : `/${relativePathOrPattern.replace(/^\/+|\/+$/g, '')}/`;
            const current = await external_node_fs_namespaceObject.promises.readFile(file, 'utf8').catch(() => '');
            if (current.split('\n').includes(line))
                return;
            await external_node_fs_namespaceObject.promises.mkdir(external_node_path_default().dirname(file), { recursive: true });
            await external_node_fs_namespaceObject.promises.appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}# agent-loop (never committed)\n${line}\n`);
        },
    };
}
/** A branch name git accepts for an issue id: agent-loop/<id>, agent-loop/issue-<n> for a GitHub issue number. */
function cycleBranch(issueIds) {
    const safe = (s) => (/^\d+$/.test(s) ? `issue-${s}` : s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'issue');
    const first = safe(issueIds[0] ?? 'issue');
    return issueIds.length > 1 ? `agent-loop/batch-${first}-and-${issueIds.length - 1}-more` : `agent-loop/${first}`;
}

;// CONCATENATED MODULE: ./src/issues/ready.ts
/** Dependency types that keep an issue out of the ready list while their target is not closed. */
const BLOCKING_DEPENDENCY_TYPES = new Set([
    'blocks',
    'parent-child',
    'conditional-blocks',
    'waits-for',
]);
/** beads' default dependency type, assumed when a dependency has no `type`. */
const DEFAULT_DEPENDENCY_TYPE = 'blocks';
function isBeadsRecord(value) {
    return ready_isPlainObject(value) && typeof value.id === 'string';
}
/**
 * The dependencies of a record, skipping entries that name no target. `bd show --json` lists
 * dependencies as the depended-on issues themselves (`id`, `dependency_type`), the JSONL as
 * `{issue_id, depends_on_id, type}`: both are read.
 */
function dependencyRefs(record) {
    const deps = record.dependencies;
    if (!Array.isArray(deps))
        return [];
    const refs = [];
    for (const dep of deps) {
        if (!ready_isPlainObject(dep))
            continue;
        const dependsOn = typeof dep.depends_on_id === 'string' ? dep.depends_on_id : typeof dep.id === 'string' ? dep.id : undefined;
        if (dependsOn === undefined)
            continue;
        const type = typeof dep.type === 'string' ? dep.type : typeof dep.dependency_type === 'string' ? dep.dependency_type : DEFAULT_DEPENDENCY_TYPE;
        refs.push({ dependsOn, type });
    }
    return refs;
}
/** Maps a beads record to the source-independent `Issue`. */
function beadsRecordToIssue(record) {
    const issue = {
        id: record.id,
        title: typeof record.title === 'string' ? record.title : '',
        body: typeof record.description === 'string' ? record.description : '',
        status: typeof record.status === 'string' ? record.status : '',
        labels: Array.isArray(record.labels) ? record.labels.filter((l) => typeof l === 'string') : [],
        dependencies: dependencyRefs(record).map((d) => d.dependsOn),
    };
    if (typeof record.priority === 'number' && Number.isFinite(record.priority))
        issue.priority = record.priority;
    if (typeof record.created_at === 'string')
        issue.createdAt = record.created_at;
    return issue;
}
/** Statuses that no longer hold anything up: closed, and deleted (tombstone) issues. */
const DONE_STATUSES = new Set(['closed', 'tombstone']);
/**
 * Why a record is not ready, or undefined when it is. `byId` holds every record of the file
 * (closed ones included); a dependency on an id that is not there does not block.
 *
 * `blocks`, `conditional-blocks` and `waits-for` block while their target is not done. For
 * `parent-child` (the child's edge to its epic) we follow `bd ready`: an open parent is the normal
 * state of an epic and does not hold its children back; a child is blocked only when its parent is
 * itself blocked (transitively).
 */
function blockedReason(record, byId) {
    if (record.status !== 'open')
        return `status is ${JSON.stringify(record.status ?? null)}, not "open"`;
    return blockedBy(record, byId, new Set());
}
function blockedBy(record, byId, seen) {
    if (seen.has(record.id))
        return undefined;
    seen.add(record.id);
    for (const dep of dependencyRefs(record)) {
        if (!BLOCKING_DEPENDENCY_TYPES.has(dep.type))
            continue;
        const target = byId.get(dep.dependsOn);
        if (!target)
            continue;
        const status = typeof target.status === 'string' ? target.status : '';
        if (DONE_STATUSES.has(status))
            continue;
        if (dep.type === 'parent-child') {
            const parentBlocked = blockedBy(target, byId, seen);
            if (parentBlocked)
                return `parent ${dep.dependsOn} is blocked (${parentBlocked})`;
            continue;
        }
        return `${dep.type} dependency on ${dep.dependsOn} (${status})`;
    }
    return undefined;
}
/** The ready issues among `records`, most urgent first (see `compareIssues`). */
function computeReady(records) {
    const byId = new Map();
    for (const r of records)
        byId.set(r.id, r);
    return sortIssues(records.filter((r) => blockedReason(r, byId) === undefined).map(beadsRecordToIssue));
}
/**
 * Most urgent first: priority ascending (missing after every number), then created_at ascending as
 * dates (missing or unparseable last), then id (code-unit order, so the result never depends on
 * the locale).
 */
function compareIssues(a, b) {
    const byPriority = compareOptional(a.priority, b.priority);
    if (byPriority !== 0)
        return byPriority;
    const byCreated = compareOptional(timeOf(a.createdAt), timeOf(b.createdAt));
    if (byCreated !== 0)
        return byCreated;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
/** A sorted copy; the input is left as it was. */
function sortIssues(issues) {
    return [...issues].sort(compareIssues);
}
function compareOptional(a, b) {
    if (a === undefined)
        return b === undefined ? 0 : 1;
    if (b === undefined)
        return -1;
    return a - b;
}
function timeOf(rfc3339) {
    if (rfc3339 === undefined)
        return undefined;
    const t = Date.parse(rfc3339);
    return Number.isNaN(t) ? undefined : t;
}
function ready_isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

;// CONCATENATED MODULE: ./src/issues/types.ts
function isClosed(issue) {
    return issue.status === 'closed';
}
/** The label of an issue whose work waits in an open pull request; later runs skip it. */
const PR_OPEN_LABEL = 'agent-loop:pr-open';
/** The label of an escalated issue; removing it makes the issue eligible again. */
const ESCALATED_LABEL = 'agent-loop:escalated';

;// CONCATENATED MODULE: ./src/util/onPath.ts
/** Whether a program can be found on PATH, without running a shell. */


/**
 * Whether `cmd` names an executable file in one of the PATH directories (on Windows also with the
 * PATHEXT extensions). A `cmd` containing a path separator is checked as that path. Empty PATH
 * entries (which would mean the current directory) are ignored.
 */
async function isOnPath(cmd, envPath = process.env.PATH) {
    if (cmd === '')
        return false;
    const windows = process.platform === 'win32';
    const extensions = windows ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : [''];
    const candidates = cmd.includes('/') || (windows && cmd.includes('\\'))
        ? [cmd]
        : (envPath ?? '').split((external_node_path_default()).delimiter).filter((dir) => dir !== '').map((dir) => external_node_path_default().join(dir, cmd));
    for (const candidate of candidates) {
        for (const ext of extensions) {
            if (await isExecutableFile(candidate + ext, windows))
                return true;
        }
    }
    return false;
}
async function isExecutableFile(file, windows) {
    try {
        const stat = await external_node_fs_namespaceObject.promises.stat(file);
        if (!stat.isFile())
            return false;
        if (!windows)
            await external_node_fs_namespaceObject.promises.access(file, external_node_fs_namespaceObject.constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./src/issues/beadsCli.ts




const MAX_BUFFER = 64 * 1024 * 1024;
/** `ExecFn` over `child_process.execFile`. Rejects only when the command cannot be run at all. */
const execFileCommand = (file, args, opts) => new Promise((resolve, reject) => {
    (0,external_node_child_process_namespaceObject.execFile)(file, args, { cwd: opts.cwd, maxBuffer: MAX_BUFFER, encoding: 'utf8', windowsHide: true }, (error, stdout, stderr) => {
        if (!error)
            return resolve({ code: 0, stdout, stderr });
        const failure = error;
        if (typeof failure.code === 'number')
            return resolve({ code: failure.code, stdout, stderr });
        if (failure.signal)
            return resolve({ code: 128, stdout, stderr: `${stderr}${stderr.endsWith('\n') || !stderr ? '' : '\n'}killed by ${failure.signal}` });
        if (failure.code === 'ENOENT') {
            return reject(new Error(`Cannot run ${file}: command not found (cwd ${opts.cwd}). Install it or put it on PATH.`));
        }
        reject(new Error(`Cannot run ${[file, ...args].join(' ')} in ${opts.cwd}: ${failure.message}`));
    });
});
/**
 * `bd ready` shows 10 issues by default; `--limit 0` lifts the limit so that the re-sort below sees
 * every ready issue, not just bd's first ten under its own sort policy.
 */
const BD_READY_ARGS = ['ready', '--json', '--limit', '0'];
/** Issues through the beads CLI (`bd`), for repositories where it is installed. */
class BdCliSource {
    description = 'bd';
    cwd;
    exec;
    command;
    onWarning;
    constructor(options) {
        this.cwd = options.cwd;
        this.exec = options.exec ?? execFileCommand;
        this.command = options.command ?? 'bd';
        this.onWarning = options.onWarning ?? (() => { });
    }
    /** `bd ready --json`, re-sorted with `compareIssues` (bd's own filter is kept as it is). */
    async ready() {
        const args = [...BD_READY_ARGS];
        const output = await this.run(args);
        const value = parseJsonOutput(output, this.commandLine(args));
        if (value === null)
            return [];
        if (!Array.isArray(value)) {
            throw new Error(`${this.commandLine(args)} printed ${describeJson(value)} where a JSON array of issues was expected. Check the bd version (\`bd version\`).`);
        }
        return sortIssues(this.records(value, args).map(beadsRecordToIssue));
    }
    /** `bd show <id> --json`: an object or a one-element array. Unknown id (bd says "not found") → undefined. */
    async get(id) {
        const args = ['show', id, '--json'];
        const result = await this.exec(this.command, args, { cwd: this.cwd });
        if (result.code !== 0) {
            if (isNotFound(`${result.stderr}\n${result.stdout}`, id))
                return undefined;
            throw commandError(this.commandLine(args), result);
        }
        const value = parseJsonOutput(result.stdout, this.commandLine(args));
        if (value === null)
            return undefined;
        const records = this.records(Array.isArray(value) ? value : [value], args);
        const record = records.find((r) => r.id === id) ?? records[0];
        return record && beadsRecordToIssue(record);
    }
    /** `bd close <id> --reason <reason>`, after checking that the issue exists and is not closed yet. */
    async close(id, reason) {
        const issue = await this.get(id);
        if (!issue) {
            throw new Error(`Cannot close issue ${id}: bd does not know it (\`bd show ${id}\` says not found, cwd ${this.cwd}). Check the id with \`bd list\`.`);
        }
        if (issue.status === 'closed')
            return;
        await this.run(['close', id, '--reason', reason]);
    }
    async markEscalated(id, note) {
        const issue = await this.get(id);
        if (!issue)
            throw new Error(`Cannot mark issue ${id} escalated: bd does not know it. Check the id with \`bd list\`.`);
        if (!issue.labels.includes(ESCALATED_LABEL))
            await this.run(['label', 'add', id, ESCALATED_LABEL]);
        await this.run(['comments', 'add', id, note]);
    }
    async run(args) {
        const result = await this.exec(this.command, args, { cwd: this.cwd });
        if (result.code !== 0)
            throw commandError(this.commandLine(args), result);
        return result.stdout;
    }
    records(values, args) {
        const records = [];
        values.forEach((value, index) => {
            if (isBeadsRecord(value))
                records.push(value);
            else
                this.onWarning(`${this.commandLine(args)}: entry ${index} skipped, it is ${describeJson(value)}, not an issue with a string "id"`);
        });
        return records;
    }
    commandLine(args) {
        return [this.command, ...args].map(shellQuote).join(' ');
    }
}
/**
 * Parses a command's JSON output. Tolerates text printed before the JSON (a notice on stdout) by
 * retrying from the first line that starts with "[" or "{". Empty output reads as null.
 */
function parseJsonOutput(stdout, commandLine) {
    const text = stdout.trim();
    if (text === '')
        return null;
    try {
        return JSON.parse(text);
    }
    catch (error) {
        const start = text.search(/^[[{]/m);
        if (start > 0) {
            try {
                return JSON.parse(text.slice(start));
            }
            catch {
                // fall through to the error about the whole output
            }
        }
        throw new Error(`${commandLine} printed output that is not JSON (${error.message}): ${excerpt(text)}`);
    }
}
/**
 * bd's wordings for an unknown id: "Issue X not found", "Error: issue X not found",
 * "no issue found matching \"X\"", "no issues found matching the provided IDs". A "not found" about
 * something else (a missing database, say) is not taken for an unknown issue.
 */
function isNotFound(output, id) {
    return output.split(/\r?\n/).some((line) => {
        const lower = line.toLowerCase();
        if (/no issues? found/.test(lower))
            return true;
        return lower.includes('not found') && (line.includes(id) || lower.includes('issue'));
    });
}
function commandError(commandLine, result) {
    const stderr = beadsCli_lastLines(result.stderr, 10) || '(no stderr)';
    return new Error(`${commandLine} failed with exit code ${result.code}:\n${stderr}`);
}
function beadsCli_lastLines(text, count) {
    return text.trimEnd().split(/\r?\n/).slice(-count).join('\n');
}
function excerpt(text, max = 200) {
    return text.length > max ? `${text.slice(0, max)}…` : text;
}
function describeJson(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'an array';
    return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
function shellQuote(arg) {
    return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

;// CONCATENATED MODULE: ./src/issues/beadsFile.ts






const NEWLINE = 0x0a;
const BOM = '\uFEFF';
/** Pure: splits and parses a beads JSONL file. Empty lines are neither entries nor problems. */
function parseJsonl(content) {
    const segments = [];
    for (let start = 0;;) {
        const end = content.indexOf(NEWLINE, start);
        if (end === -1) {
            segments.push(content.subarray(start));
            break;
        }
        segments.push(content.subarray(start, end));
        start = end + 1;
    }
    const entries = [];
    const problems = [];
    const lineOfId = new Map();
    segments.forEach((segment, index) => {
        const line = index + 1;
        const { body } = splitLine(segment.toString('utf8'), index === 0);
        if (body.trim() === '')
            return;
        let value;
        try {
            value = JSON.parse(body);
        }
        catch (error) {
            problems.push({ line, message: `malformed line skipped (${error.message})` });
            return;
        }
        if (!ready_isPlainObject(value)) {
            problems.push({ line, message: `malformed line skipped (not a JSON object)` });
            return;
        }
        if (!isBeadsRecord(value)) {
            problems.push({ line, message: `malformed line skipped (no string "id" field)` });
            return;
        }
        const earlier = lineOfId.get(value.id);
        if (earlier !== undefined) {
            problems.push({ line, message: `issue ${value.id} also appears on line ${earlier}; this later line is the one used` });
        }
        lineOfId.set(value.id, line);
        entries.push({ line, segment: index, record: value });
    });
    return { segments, entries, problems };
}
/** The last entry for each id, in file order of those entries. */
function latestEntries(entries) {
    const last = new Map();
    for (const entry of entries)
        last.set(entry.record.id, entry);
    return entries.filter((entry) => last.get(entry.record.id) === entry);
}
/**
 * Pure: the file with one segment replaced by `record` serialised on one line. A "\r" ending the old
 * segment and a byte-order mark starting the file are kept; every other byte is the original.
 */
function replaceSegment(parsed, segmentIndex, record) {
    const old = parsed.segments[segmentIndex];
    if (old === undefined)
        throw new Error(`replaceSegment: no segment ${segmentIndex} (the file has ${parsed.segments.length})`);
    const { bom, cr } = splitLine(old.toString('utf8'), segmentIndex === 0);
    const segments = [...parsed.segments];
    segments[segmentIndex] = Buffer.from(bom + JSON.stringify(record) + cr, 'utf8');
    const parts = [];
    segments.forEach((segment, i) => {
        if (i > 0)
            parts.push(Buffer.from([NEWLINE]));
        parts.push(segment);
    });
    return Buffer.concat(parts);
}
function splitLine(text, first) {
    const bom = first && text.startsWith(BOM) ? BOM : '';
    const cr = text.endsWith('\r') ? '\r' : '';
    return { bom, cr, body: text.slice(bom.length, text.length - cr.length) };
}
/**
 * Issues read from a beads JSONL file (`.beads/issues.jsonl`), used when the `bd` CLI is not
 * installed. The file is read afresh on every call, because the agent may edit it in between.
 * Writes replace only the touched issue's line, atomically.
 */
class BeadsFileSource {
    description;
    file;
    absolute;
    onWarning;
    now;
    reported = new Set();
    /** Serialises read-modify-write cycles of this instance so two updates cannot lose each other. */
    queue = Promise.resolve();
    constructor(options) {
        this.file = options.file;
        this.absolute = external_node_path_default().resolve(options.cwd ?? process.cwd(), options.file);
        this.onWarning = options.onWarning ?? (() => { });
        this.now = options.now ?? (() => new Date());
        this.description = `beads file ${options.file}`;
    }
    async ready() {
        const parsed = await this.read();
        return computeReady(latestEntries(parsed.entries).map((e) => e.record));
    }
    async get(id) {
        const entry = findLatest(await this.read(), id);
        return entry && beadsRecordToIssue(entry.record);
    }
    /** Sets status closed, closed_at, updated_at and close_reason. A closed issue is left untouched. */
    /** Adds the escalation label and appends the note to beads' `notes` field. */
    async markEscalated(id, note) {
        await this.modify(id, 'mark escalated', (record) => {
            const labels = Array.isArray(record.labels) ? record.labels.filter((l) => typeof l === 'string') : [];
            const existing = typeof record.notes === 'string' ? record.notes : '';
            if (labels.includes(ESCALATED_LABEL) && existing.includes(note))
                return record; // already recorded
            const notes = existing.trim() !== '' ? (existing.includes(note) ? existing : `${existing}\n\n${note}`) : note;
            return {
                ...record,
                labels: labels.includes(ESCALATED_LABEL) ? labels : [...labels, ESCALATED_LABEL],
                notes,
                updated_at: rfc3339(this.now()),
            };
        });
    }
    async close(id, reason) {
        await this.modify(id, 'close', (record) => {
            if (record.status === 'closed')
                return record;
            const stamp = rfc3339(this.now());
            return { ...record, status: 'closed', closed_at: stamp, updated_at: stamp, close_reason: reason };
        });
    }
    /**
     * Replaces one issue's record with `patch(record)` and rewrites the file atomically, changing only
     * that issue's line (existing keys keep their order, new keys go at the end). When the patch
     * changes nothing, the file is not written. Returns the record now in the file.
     */
    updateIssue(id, patch) {
        return this.modify(id, 'update', patch);
    }
    modify(id, action, patch) {
        const run = this.queue.then(async () => {
            const parsed = await this.read();
            const entry = findLatest(parsed, id);
            if (!entry) {
                throw new Error(`Cannot ${action} issue ${id}: no issue with that id in ${this.file} (${parsed.entries.length} issues read). ` +
                    `Check the id, or point at the right file with --issues-file PATH.`);
            }
            const before = JSON.stringify(entry.record);
            const after = patch(entry.record);
            if (!isBeadsRecord(after) || after.id !== id) {
                throw new Error(`Cannot ${action} issue ${id} in ${this.file}: the patch must return an object with "id": ${JSON.stringify(id)}.`);
            }
            if (JSON.stringify(after) === before)
                return after;
            await writeFileAtomic(this.absolute, replaceSegment(parsed, entry.segment, after));
            return after;
        });
        this.queue = run.catch(() => undefined);
        return run;
    }
    async read() {
        let content;
        try {
            content = await external_node_fs_namespaceObject.promises.readFile(this.absolute);
        }
        catch (error) {
            const code = error.code;
            if (code === 'ENOENT') {
                throw new Error(`Beads issues file not found: ${this.file} (looked at ${this.absolute}). ` +
                    `Create it with \`bd init\`, or point at another file with --issues-file PATH.`);
            }
            throw new Error(`Cannot read beads issues file ${this.file}: ${error.message}. Check that it is a readable file.`);
        }
        const parsed = parseJsonl(content);
        for (const problem of parsed.problems)
            this.warnOnce(`${this.file}:${problem.line}: ${problem.message}`);
        return parsed;
    }
    warnOnce(message) {
        if (this.reported.has(message))
            return;
        this.reported.add(message);
        this.onWarning(message);
    }
}
function findLatest(parsed, id) {
    for (let i = parsed.entries.length - 1; i >= 0; i--) {
        const entry = parsed.entries[i];
        if (entry?.record.id === id)
            return entry;
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/issues/index.ts






/** The bd CLI when `bd` is on PATH (unless preferCli is false), else the JSONL file. */
async function createBeadsSource(options) {
    const { issuesFile, cwd, onWarning, preferCli = true } = options;
    if (preferCli && (await isOnPath('bd', options.envPath))) {
        return new BdCliSource({ cwd, onWarning, ...(options.exec ? { exec: options.exec } : {}) });
    }
    return new BeadsFileSource({ file: issuesFile, cwd, onWarning, ...(options.now ? { now: options.now } : {}) });
}

;// CONCATENATED MODULE: ./src/report/diagnostic.ts
const OUTPUT_CHARS = 500;
const LOOP_TYPES = {
    failure_loop: 'consecutive escalations',
    bounce_loop: 'step bounce',
    all_escalated: 'only escalated issues remain',
    agent_unavailable: 'agent unavailable',
    max_iterations: 'max iterations',
    budget: 'budget',
    contract_violation: 'contract violation',
    stuck: 'stuck',
    workflow_aborted: 'red/green/refactor workflow aborted',
};
const ADVICE = {
    failure_loop: 'Read the escalated issues and the agent output below; fix what blocks them (the issue text, the tests, the environment), remove the agent-loop:escalated label from any issue that should be tried again, then run agent-loop again to resume.',
    bounce_loop: 'The workflow keeps stepping back: the agent reports work done that the next step cannot use. Inspect the branch and working tree left checked out, clarify the issue, then run again to resume.',
    all_escalated: 'Every remaining ready issue has been escalated. Fix them or remove the agent-loop:escalated label from those to retry, then run again.',
    agent_unavailable: 'The agent cannot work in this environment; no issue was blamed.',
    max_iterations: 'Raise --max-iterations to continue from here (the count is kept across slices), or inspect why the work does not converge.',
    budget: 'Raise --max-cost-usd to continue, or inspect the spend per iteration in the history.',
    contract_violation: "The agent's report contradicted itself under --strict; see errors.jsonl.",
    stuck: 'The agent reported no progress; inspect the branch and run again to resume.',
    workflow_aborted: 'The red/green/refactor workflow cannot go on by itself (seed 003: manual intervention). Its commits and git notes (refs/notes/agent-loop) are kept: inspect the branch, fix the test or the code by hand, commit, then run again: it resumes from the newest note.',
};
/** id as people refer to it: #42 for GitHub numbers, bd-a1 for beads. */
const issueRef = (id) => (/^\d+$/.test(id) ? `#${id}` : id);
function buildDiagnostic(input) {
    const { state, reason } = input;
    const involved = reason === 'failure_loop' || reason === 'all_escalated'
        ? state.escalations.slice(reason === 'failure_loop' ? -state.consecutiveEscalations : 0)
        : [];
    const issues = involved.length > 0
        ? involved.flatMap((e) => e.issueIds.map((id, i) => ({ id, title: e.titles[i] ?? '' })))
        : (state.currentCycle?.issueIds ?? state.escalations.at(-1)?.issueIds ?? []).map((id, i) => ({ id, title: state.currentCycle?.titles[i] ?? state.escalations.at(-1)?.titles[i] ?? '' }));
    // A halting escalation has already closed its cycle: then its steps are in its record.
    const cycleSteps = state.currentCycle ? state.currentCycle.progress.trail : involved.length === 0 ? state.escalations.at(-1)?.steps ?? [] : [];
    const steps = [...new Set([...involved.flatMap((e) => e.steps), ...cycleSteps])];
    return {
        reason,
        headline: input.message,
        loopType: LOOP_TYPES[reason],
        issues: dedupe(issues),
        steps,
        escalations: { consecutive: state.consecutiveEscalations, limit: input.maxConsecutiveEscalations, total: state.totalEscalations },
        lastOutput: state.lastAgentOutput.slice(-OUTPUT_CHARS),
        ...(lastFailureOf(state, involved) ? { lastFailure: lastFailureOf(state, involved) } : {}),
        advice: input.advice ?? ADVICE[reason],
        checkpointId: input.checkpointId,
        iteration: state.iteration,
        ...(reason === 'workflow_aborted' && state.tddError ? { tddError: { type: state.tddError.type, message: state.tddError.message, retry_count: state.tddError.retry_count } } : {}),
    };
}
function lastFailureOf(state, involved) {
    const f = involved.at(-1)?.lastFailure ?? state.currentCycle?.lastFailure ?? state.escalations.at(-1)?.lastFailure;
    return f ? { ...f, tail: f.tail.slice(-OUTPUT_CHARS) } : undefined;
}
const fence = (text) => ['```', text.replace(/```/g, '`\u200b``').trimEnd() || '(no output)', '```'];
function renderMarkdown(d) {
    const lines = [
        `# agent-loop halted: ${d.headline}`,
        '',
        `- Loop type: ${d.loopType}`,
        `- Issues: ${d.issues.map((i) => `${issueRef(i.id)}${i.title ? ` "${i.title}"` : ''}`).join(', ') || 'none'}`,
        `- Steps involved: ${d.steps.join(', ') || 'none'}`,
        `- Escalations: ${d.escalations.consecutive} consecutive (limit ${d.escalations.limit}), ${d.escalations.total} in this run`,
        `- Iteration: ${d.iteration}; checkpoint ${d.checkpointId}`,
        ...(d.tddError ? [`- Error type: ${d.tddError.type} (${d.tddError.retry_count} attempts): ${d.tddError.message}`] : []),
        '',
        `What to do: ${d.advice}`,
        '',
        ...(d.lastFailure
            ? [`Last failure (${d.lastFailure.kind === 'tests' ? 'the test gate' : 'the agent'}): ${d.lastFailure.message}`, '', ...fence(d.lastFailure.tail), '']
            : []),
        `Last ${OUTPUT_CHARS} characters of agent output:`,
        '',
        ...fence(d.lastOutput),
        '',
        'Nothing was reset: the checkpoint, the branch, the working tree and the escalation labels are as the run left them.',
    ];
    return `${lines.join('\n')}\n`;
}
function toDiscordMessage(d) {
    return {
        title: `agent-loop halted: ${d.loopType}`,
        summary: `${d.headline}\n\n${d.advice}`,
        fields: [
            { name: 'Issues', value: d.issues.map((i) => `${issueRef(i.id)}${i.title ? ` ${i.title}` : ''}`).join('\n') || 'none' },
            { name: 'Steps', value: d.steps.join(', ') || 'none', inline: true },
            { name: 'Escalations', value: `${d.escalations.consecutive} consecutive (limit ${d.escalations.limit}), ${d.escalations.total} total`, inline: true },
            ...(d.tddError ? [{ name: 'Error type', value: `${d.tddError.type}: ${d.tddError.message}` }] : []),
            { name: 'Checkpoint', value: `${d.checkpointId} (iteration ${d.iteration})` },
        ],
        outputTail: d.lastFailure?.kind === 'tests' ? `${d.lastFailure.message}\n${d.lastFailure.tail}\n--- agent output ---\n${d.lastOutput}` : d.lastOutput,
        color: 0xd73a49,
    };
}
function dedupe(items) {
    const seen = new Set();
    return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}

;// CONCATENATED MODULE: ./src/loop/cycle.ts
/**
 * The cycle step machine: one target worked through its workflow's steps. Pure.
 * Per step: a failure is retried (with the failure as context) up to --max-retries-per-step; a
 * failed precondition steps back to the previous step (a bounce); more retries than allowed, or
 * more bounces than allowed in the cycle, escalate.
 */
/** The `implement` workflow: the agent works (implement), then the work is checked (verify: test gate). */
const WORKFLOWS = {
    implement: ['implement', 'verify'],
};
const initialProgress = () => ({ index: 0, retries: {}, bounces: 0, trail: [] });
function transition(workflow, progress, event, maxRetriesPerStep) {
    const step = workflow[progress.index] ?? workflow[0] ?? 'implement';
    switch (event.type) {
        case 'succeeded': {
            const index = progress.index + 1;
            const next = { ...progress, index };
            return index >= workflow.length ? { progress: next, decision: { kind: 'done' } } : { progress: next, decision: { kind: 'run', step: workflow[index] } };
        }
        case 'failed': {
            const count = (progress.retries[step] ?? 0) + 1;
            const resumeAt = Math.max(0, Math.min(event.resumeAt ?? progress.index, workflow.length - 1));
            const next = { ...progress, index: resumeAt, retries: { ...progress.retries, [step]: count }, trail: [...progress.trail, step] };
            if (count > maxRetriesPerStep) {
                return { progress: next, decision: { kind: 'escalate', reason: `step ${step} failed ${count} times (retries exhausted: --max-retries-per-step ${maxRetriesPerStep}); last: ${event.reason}`, bounceLoop: false } };
            }
            return { progress: next, decision: { kind: 'run', step: workflow[resumeAt] } };
        }
        case 'precondition_failed': {
            const bounces = progress.bounces + 1;
            const index = Math.max(0, progress.index - 1);
            const next = { ...progress, index, bounces, trail: [...progress.trail, `${step}→${workflow[index]}`] };
            if (bounces > maxRetriesPerStep) {
                return { progress: next, decision: { kind: 'escalate', reason: `${bounces} step-back transitions (${step} → ${workflow[index]}): ${event.reason}`, bounceLoop: true } };
            }
            return { progress: next, decision: { kind: 'run', step: workflow[index] } };
        }
        case 'escalate':
            return { progress: { ...progress, trail: [...progress.trail, step] }, decision: { kind: 'escalate', reason: event.reason, bounceLoop: false } };
    }
}

;// CONCATENATED MODULE: ./src/failure/policy.ts
/**
 * The retry policy, as data (Temporal's terms): which failures are retried, how long to wait, how
 * many attempts, and what happens when they run out. Validated once at load. Pure.
 */

const PolicySchema = object({
    /** First wait, before backoff. */
    initialIntervalMs: schemas_number().min(0),
    backoffCoefficient: schemas_number().min(1),
    /** Longest single wait (a longer retry-after is still honoured). */
    maximumIntervalMs: schemas_number().positive(),
    /** Attempts before `onExhausted`; null: until the failure stops (rate limits). */
    maximumAttempts: schemas_number().int().positive().nullable(),
    /** Whether a failure of this kind counts toward the step's --max-retries-per-step. */
    countsTowardStep: schemas_boolean(),
    /** Start the next attempt in a fresh agent session. */
    freshSession: schemas_boolean(),
    onExhausted: schemas_enum(['escalate', 'halt']),
});
/** How the loop treats a failure, by what it says about the issue and the environment. */
const FailureKinds = ['rate_limit', 'timeout', 'transient', 'permanent_issue', 'permanent_environment'];
const POLICIES = Object.freeze(record(schemas_enum(FailureKinds), PolicySchema).parse({
    // 1, 2, 4, 8, 16, 32 s … honouring retry-after / reset times, until the window passes.
    rate_limit: { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 5 * 60_000, maximumAttempts: null, countsTowardStep: false, freshSession: false, onExhausted: 'escalate' },
    // Timeouts and network errors: the same timeout again, 3 retries (4 attempts), then escalate the cycle.
    timeout: { initialIntervalMs: 0, backoffCoefficient: 1, maximumIntervalMs: 1, maximumAttempts: 4, countsTowardStep: false, freshSession: false, onExhausted: 'escalate' },
    // Other transient failures (overloaded, 5xx, crashes): the step's retries.
    transient: { initialIntervalMs: 0, backoffCoefficient: 1, maximumIntervalMs: 1, maximumAttempts: null, countsTowardStep: true, freshSession: false, onExhausted: 'escalate' },
    // Tied to the issue (max turns, prompt too long, invalid request): next iteration, fresh session, failure as context.
    permanent_issue: { initialIntervalMs: 0, backoffCoefficient: 1, maximumIntervalMs: 1, maximumAttempts: null, countsTowardStep: true, freshSession: true, onExhausted: 'escalate' },
    // The environment (auth, billing, permissions): no issue is to blame; 2 in a row halt the run.
    permanent_environment: { initialIntervalMs: 0, backoffCoefficient: 1, maximumIntervalMs: 1, maximumAttempts: 2, countsTowardStep: false, freshSession: true, onExhausted: 'halt' },
}));
const ENVIRONMENT_REASONS = new Set(['auth', 'billing', 'not_found', 'not_executable', 'spawn_failed', 'permission_denied']);
const TIMEOUT_REASONS = new Set(['timeout', 'network']);
/** Which policy applies to a failure. */
function failureKind(failure) {
    if (failure.reason === 'rate_limit')
        return 'rate_limit';
    if (TIMEOUT_REASONS.has(failure.reason))
        return 'timeout';
    if (failure.class === 'permanent')
        return ENVIRONMENT_REASONS.has(failure.reason) ? 'permanent_environment' : 'permanent_issue';
    return 'transient';
}
/** The wait before attempt `attempt + 1` (attempt is 1 for the first failure), honouring the failure's own retry-after. */
function backoffMs(policy, attempt, retryAfterMs) {
    const exponential = policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, attempt - 1);
    const capped = Math.min(exponential, policy.maximumIntervalMs);
    return Math.max(capped, retryAfterMs ?? 0);
}
/** Whether `attempts` failures in a row have used up the policy. */
function exhausted(policy, attempts) {
    return policy.maximumAttempts !== null && attempts >= policy.maximumAttempts;
}
/** What a person must fix when the environment keeps failing. */
function environmentAdvice(reason) {
    switch (reason) {
        case 'auth': return 'The agent cannot authenticate: check ANTHROPIC_API_KEY / OPENAI_API_KEY (or the CLI login) in the environment that runs agent-loop.';
        case 'billing': return "The agent's account cannot pay for requests: check the API account's billing and quota.";
        case 'not_found':
        case 'not_executable':
        case 'spawn_failed': return 'The agent program cannot be started: check --agent / --agent-command and that the CLI is installed and on PATH.';
        case 'permission_denied': return 'The agent was denied every edit: allow its tools (--agent-allowed-tools "Bash Edit Write Read") or choose another --agent-permission-mode.';
        default: return 'Fix the agent environment, then run again to resume.';
    }
}

;// CONCATENATED MODULE: ./src/loop/continuation.ts
function decideContinuation(report, previous) {
    if (!report) {
        return { reportSaysDone: false, workRemaining: previous.workRemaining, sameWorkRemainingCount: previous.sameCount };
    }
    const remaining = report.workRemainingEmpty ? undefined : (report.workRemaining ?? '').trim();
    const same = remaining !== undefined && remaining === previous.workRemaining;
    const sameCount = remaining === undefined ? 0 : same ? previous.sameCount + 1 : 1;
    const decision = {
        reportSaysDone: remaining === undefined && report.requiresContinuation !== true,
        workRemaining: remaining,
        sameWorkRemainingCount: sameCount,
    };
    if (remaining !== undefined && report.requiresContinuation === false) {
        decision.contractViolation = { workRemaining: remaining, requiresContinuation: false };
    }
    if (report.stuckDetected === true)
        decision.stuck = 'the agent reported stuck_detected: true';
    else if (sameCount >= 2)
        decision.stuck = `work_remaining unchanged for ${sameCount} consecutive iterations: ${remaining}`;
    return decision;
}
/** Complete when every target is closed in the source, or the report says no work remains. */
function isCycleComplete(closedInSource, reportSaysDone) {
    return reportSaysDone || (closedInSource.length > 0 && closedInSource.every(Boolean));
}

;// CONCATENATED MODULE: ./src/loop/prompt.ts
const MAX_CONTEXT = 4000;
function buildPrompt(p) {
    const ids = p.issues.map((i) => i.id).join(', ');
    const parts = [
        `You are an autonomous coding agent working in this repository (iteration ${p.iteration} of at most ${p.maxIterations}).`,
        `Implement the following issue${p.issues.length > 1 ? 's' : ''} completely: ${ids}.`,
        '',
    ];
    for (const issue of p.issues) {
        parts.push(`## ${issue.id}: ${issue.title}`, '', issue.body.trim() || '(no description)', '');
    }
    if (p.plan)
        parts.push('## Plan', '', p.plan.trim(), '');
    if (p.lastFailure) {
        const what = p.lastFailure.kind === 'tests' ? 'The tests failed after the last iteration' : 'The last agent run failed';
        const tail = p.lastFailure.tail.length > MAX_CONTEXT ? `…${p.lastFailure.tail.slice(-MAX_CONTEXT)}` : p.lastFailure.tail;
        parts.push('## Previous attempt', '', `${what}: ${p.lastFailure.message}`, '', '```', tail.trim(), '```', '');
    }
    parts.push('## Done means', '', `- The tests pass: \`${p.testCommand}\`.`, `- Each issue is closed in ${p.sourceHint} once its work is done.`, '', 'End your final message with this report block:', '', '```yaml', 'work_remaining: <space-separated ids of issues not finished yet, or 0>', 'requires_continuation: <true if more work is needed, else false>', 'stuck_detected: <true if you cannot make progress, else false>', 'summary: <one line on what you did>', '```');
    return parts.join('\n') + '\n';
}

;// CONCATENATED MODULE: ./src/loop/state.ts
/**
 * The loop's progress, as stored in `checkpoint.state.loop`. Plain JSON, validated on resume, so a
 * run can stop anywhere and the next slice continues the same iteration count and history.
 */

const HISTORY_KEPT = 500;
const FailureSchema = object({
    class: schemas_enum(['transient', 'permanent']),
    reason: schemas_string(),
    message: schemas_string(),
    retryAfterMs: schemas_number().optional(),
});
const TDD_PHASE = schemas_enum(['RED', 'GREEN', 'REFACTOR']);
const TddErrorSchema = object({ type: schemas_string(), message: schemas_string(), details: schemas_string() });
/** A red/green/refactor cycle's progress (--workflow tdd); the phase commits' git notes mirror it. */
const TddCycleSchema = object({
    tests: array(object({ description: schemas_string(), status: schemas_enum(['pending', 'done', 'problematic', 'duplicate']) })),
    /** The test being worked on (index into tests). */
    index: schemas_number().int(),
    phase: TDD_PHASE,
    /** The red/green/refactor round, from 1 (the note's `cycle`). */
    round: schemas_number().int().min(1),
    /** Failed attempts of the current phase. */
    retries: schemas_number().int(),
    /** The commit before the current phase started (the rollback target). */
    phaseBase: schemas_string().optional(),
    /** The tests RED left failing. */
    targetTests: array(schemas_string()),
    testFile: schemas_string(),
    /** The last phase commit this cycle wrote (a newer note on the branch means a run died after writing it). */
    lastCommit: schemas_string().optional(),
    /** Why the previous attempt of this phase failed, for the retry prompt. */
    lastError: TddErrorSchema.optional(),
});
const IterationOutcomes = ['agent_failed', 'continuing', 'tests_failed', 'bounced', 'complete', 'stuck', 'contract_violation'];
const IterationRecordSchema = object({
    n: schemas_number().int(),
    issueIds: array(schemas_string()),
    startedAt: schemas_string(),
    durationMs: schemas_number(),
    outcome: schemas_enum(IterationOutcomes),
    agent: object({
        ok: schemas_boolean(),
        exitCode: schemas_number().nullable(),
        signal: schemas_string().nullable(),
        durationMs: schemas_number(),
        failure: FailureSchema.optional(),
        costUsd: schemas_number().optional(),
        turns: schemas_number().optional(),
        tokens: object({ input: schemas_number(), output: schemas_number() }).optional(),
    }),
    tests: object({ passed: schemas_boolean(), exitCode: schemas_number().nullable(), durationMs: schemas_number() }).optional(),
    workRemaining: schemas_string().optional(),
    /** --workflow tdd: the phase this iteration worked on and what came of it. */
    tdd: object({ phase: TDD_PHASE, test: schemas_string(), decision: schemas_string(), error: schemas_string().optional() }).optional(),
});
const CycleSchema = object({
    issueIds: array(schemas_string()).min(1),
    titles: array(schemas_string()),
    branch: schemas_string().optional(),
    startedAtIteration: schemas_number().int(),
    iterations: schemas_number().int(),
    /** What went wrong last time, given to the agent as context. */
    lastFailure: object({ kind: schemas_enum(['agent', 'tests']), message: schemas_string(), tail: schemas_string() }).optional(),
    lastWorkRemaining: schemas_string().optional(),
    sameWorkRemainingCount: schemas_number().int(),
    /** The agent session of the last successful iteration, resumed with --agent-session continue. */
    sessionId: schemas_string().optional(),
    /** Where the cycle is in its workflow (see cycle.ts). */
    progress: object({
        index: schemas_number().int(), retries: record(schemas_string(), schemas_number().int()), bounces: schemas_number().int(), trail: array(schemas_string()),
    }).default({ index: 0, retries: {}, bounces: 0, trail: [] }),
    /** Timeouts and network errors in a row (the timeout policy). */
    timeoutRetries: schemas_number().int().default(0),
    /** Rate limits in a row (the backoff's exponent). */
    rateLimitAttempts: schemas_number().int().default(0),
    /** --workflow tdd only. */
    tdd: TddCycleSchema.optional(),
});
const EscalationSchema = object({
    issueIds: array(schemas_string()),
    titles: array(schemas_string()),
    iteration: schemas_number().int(),
    steps: array(schemas_string()),
    reason: schemas_string(),
    at: schemas_string(),
    /** The note left on the issue in the source. */
    note: schemas_string().default(''),
    /** What failed last in the cycle (the test output or the agent error), its end only. */
    lastFailure: object({ kind: schemas_enum(['agent', 'tests']), message: schemas_string(), tail: schemas_string() }).optional(),
});
const HaltReasons = [
    'max_iterations', 'stuck', 'contract_violation', 'budget',
    'failure_loop', 'bounce_loop', 'all_escalated', 'agent_unavailable', 'workflow_aborted',
];
const LoopStateSchema = object({
    version: literal(1),
    iteration: schemas_number().int().min(0),
    maxIterations: schemas_number().int(),
    failedIterations: schemas_number().int(),
    successfulIterations: schemas_number().int(),
    testFailures: schemas_number().int(),
    testsPassed: schemas_boolean().nullable(),
    issuesClosed: array(schemas_string()),
    issuesEscalated: array(schemas_string()),
    consecutiveEscalations: schemas_number().int(),
    completedIterations: array(schemas_number().int()),
    baseBranch: schemas_string().optional(),
    currentCycle: CycleSchema.optional(),
    halt: object({ reason: schemas_enum(HaltReasons), message: schemas_string() }).optional(),
    slices: schemas_number().int(),
    costUsd: schemas_number(),
    /** Tokens reported by agents that report tokens (Codex reports no dollars). */
    tokens: object({ input: schemas_number(), output: schemas_number() }).default({ input: 0, output: 0 }),
    /** Escalated cycles, newest last (the newest 100 kept; totalEscalations stays exact). */
    escalations: array(EscalationSchema).default([]),
    totalEscalations: schemas_number().int().default(0),
    /** Permanent failures of the environment (auth, billing, permissions) in a row. */
    environmentFailures: schemas_number().int().default(0),
    /** A rate limit's window: no agent runs before this time (RFC 3339). */
    rateLimitedUntil: schemas_string().optional(),
    /** A cycle branch a halt left checked out with its work; the next run parks it as wip: and returns to the base. */
    parkedBranch: schemas_string().optional(),
    /** Pull requests opened or reused for finished cycles (onSuccess pull-request), newest last (the newest 100). */
    pullRequests: array(object({ issueIds: array(schemas_string()), number: schemas_number().int(), url: schemas_string(), reused: schemas_boolean(), iteration: schemas_number().int() })).default([]),
    /** The error that aborted a red/green/refactor workflow (seed 003's types), as in its git note. */
    tddError: TddErrorSchema.extend({ retry_count: schemas_number().int(), timestamp: schemas_string() }).optional(),
    /** The end of the last agent output (for the halt diagnostic). */
    lastAgentOutput: schemas_string().default(''),
    history: array(IterationRecordSchema),
    /** Iterations dropped from `history` to bound the checkpoint's size; the counters above stay exact. */
    compactedIterations: schemas_number().int(),
});
function initialLoopState(maxIterations) {
    return {
        version: 1,
        iteration: 0,
        maxIterations,
        failedIterations: 0,
        successfulIterations: 0,
        testFailures: 0,
        testsPassed: null,
        issuesClosed: [],
        issuesEscalated: [],
        consecutiveEscalations: 0,
        completedIterations: [],
        slices: 0,
        costUsd: 0,
        tokens: { input: 0, output: 0 },
        escalations: [],
        totalEscalations: 0,
        environmentFailures: 0,
        pullRequests: [],
        lastAgentOutput: '',
        history: [],
        compactedIterations: 0,
    };
}
/** Reads `state.loop` from a checkpoint; a string reason when it is not a loop state we understand. */
function parseLoopState(state) {
    const parsed = LoopStateSchema.safeParse(state.loop);
    if (parsed.success)
        return parsed.data;
    const first = parsed.error.issues[0];
    return `state.loop is not a valid loop state (${first ? `${first.path.join('.') || 'loop'}: ${first.message}` : 'unknown'})`;
}
/** Appends a record, keeping only the newest HISTORY_KEPT in full. Pure. */
function appendHistory(state, record) {
    const history = [...state.history, record];
    const drop = Math.max(0, history.length - HISTORY_KEPT);
    return { ...state, history: history.slice(drop), compactedIterations: state.compactedIterations + drop };
}

;// CONCATENATED MODULE: ./src/loop/iteration.ts
/**
 * One iteration of a cycle: the agent's turn (the implement step), then, when the agent says the
 * work is done, the verify step (its precondition, then the test gate). What happens after a
 * failure comes from the retry policy table; where the cycle goes next from the step machine.
 */










const WORKFLOW = WORKFLOWS.implement;
const OUTPUT_KEPT = 2000;
async function runIteration(deps, before) {
    const { settings, logger, clock, source, agent, git } = deps;
    const cycle = before.currentCycle;
    const n = before.iteration + 1;
    const started = clock.now();
    const tag = `[iteration ${n}/${settings.maxIterations}]`;
    const issues = await Promise.all(cycle.issueIds.map(async (id, i) => (await source.get(id)) ?? { id, title: cycle.titles[i] ?? id, body: '' }));
    // The previous failure's output goes back to the agent: masked like every other output.
    const prompt = (deps.redact ?? ((t) => t))(buildPrompt({
        issues, iteration: n, maxIterations: settings.maxIterations, testCommand: settings.testCommand,
        plan: settings.plan, lastFailure: cycle.lastFailure, sourceHint: source.description,
    }));
    const promptFile = external_node_path_default().join(deps.stateDir, 'prompt.md');
    await external_node_fs_namespaceObject.promises.writeFile(promptFile, prompt);
    const logDir = external_node_path_default().join(deps.stateDir, 'logs');
    await pruneIterationLogs(logDir, LOGS_KEPT - 1);
    logger.info('iteration.start', `${tag} ${describeTargets(cycle)} …`, { iteration: n, issueIds: cycle.issueIds, step: WORKFLOW[cycle.progress.index] });
    const result = await agent.run({
        prompt, iteration: n, issueIds: cycle.issueIds, cwd: deps.cwd, promptFile,
        timeoutMs: settings.agentTimeoutMinutes * 60_000, signal: deps.signal,
        onLine: (line, stream, cut) => logger.output('agent', line, stream, cut),
        logFile: external_node_path_default().join(logDir, `iteration-${n}.ndjson`),
        resumeSessionId: settings.agentSession === 'continue' ? cycle.sessionId : undefined,
    });
    if (deps.signal?.aborted)
        return { state: before, interrupted: true };
    if (settings.iterationDelaySeconds > 0)
        await clock.sleep(settings.iterationDelaySeconds * 1000, deps.signal);
    const after = afterAgentRun(before, cycle, n, started, result);
    const record = after.record;
    let state = { ...after.state, currentCycle: { ...after.state.currentCycle, sessionId: result.ok ? result.sessionId : undefined } };
    logUsage(deps, n, result, state);
    const close = (s, r) => appendHistory(s, { ...r, durationMs: clock.now().getTime() - started.getTime() });
    const setCycle = (s, patch) => ({ ...s, currentCycle: { ...s.currentCycle, ...patch } });
    const step = (s, event) => {
        const c = s.currentCycle;
        const t = transition(WORKFLOW, c.progress, event, settings.maxRetriesPerStep);
        return { state: setCycle(s, { progress: t.progress }), decision: t.decision };
    };
    // A run that was denied every edit and changed nothing is the environment's fault, not the issue's.
    let failure = result.failure;
    if (result.ok && (result.permissionDenials ?? 0) > 0 && git && state.baseBranch && !(await git.hasWorkSince(state.baseBranch))) {
        failure = { class: 'permanent', reason: 'permission_denied', message: `the agent was denied ${result.permissionDenials} tool use(s) and changed nothing` };
    }
    if (failure) {
        const kind = failureKind(failure);
        const policy = POLICIES[kind];
        logger.event('iteration.failed', failure.class === 'permanent' ? 'error' : 'warn', `${agent.displayName} iteration ${n} failed: ${failure.message} (${result.exitCode !== null ? `exit code ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code'}, ${seconds(result.durationMs)}, ${failure.class} ${failure.reason})`, { iteration: n, exitCode: result.exitCode, signal: result.signal, elapsedMs: Math.round(result.durationMs), class: failure.class, reason: failure.reason, error: failure.message, retryAfterMs: failure.retryAfterMs ?? null, policy: kind });
        state = setCycle({ ...state, failedIterations: state.failedIterations + 1 }, { lastFailure: { kind: 'agent', message: failure.message, tail: result.outputTail }, sessionId: undefined });
        const failed = { ...record, agent: { ...record.agent, ok: false, failure }, outcome: 'agent_failed' };
        switch (kind) {
            case 'rate_limit': {
                const attempts = state.currentCycle.rateLimitAttempts + 1;
                state = setCycle(state, { rateLimitAttempts: attempts });
                return { state: close(state, failed), waitMs: backoffMs(policy, attempts, failure.retryAfterMs) };
            }
            case 'timeout': {
                const attempts = state.currentCycle.timeoutRetries + 1;
                state = setCycle(state, { timeoutRetries: attempts });
                if (exhausted(policy, attempts)) {
                    return { state: close(state, failed), escalate: { reason: `${failure.reason === 'timeout' ? 'timed out' : 'network errors'} ${attempts} times in a row (${policy.maximumAttempts - 1} retries with the same timeout): ${failure.message}`, bounceLoop: false } };
                }
                return { state: close(state, failed) };
            }
            case 'permanent_environment': {
                const attempts = state.environmentFailures + 1;
                state = { ...state, environmentFailures: attempts };
                if (exhausted(policy, attempts)) {
                    return {
                        state: close(state, failed),
                        halt: { reason: 'agent_unavailable', message: `AGENT UNAVAILABLE: ${attempts} environment failures in a row (${failure.reason}): ${failure.message}`, advice: environmentAdvice(failure.reason) },
                    };
                }
                return { state: close(state, failed) };
            }
            default: {
                // transient and permanent_issue: the step's retries, with the failure as context (and a fresh session).
                const t = step({ ...state, environmentFailures: 0 }, { type: 'failed', reason: failure.message });
                state = t.state;
                if (t.decision.kind === 'escalate')
                    return { state: close(state, failed), escalate: { reason: t.decision.reason, bounceLoop: false } };
                return { state: close(state, failed) };
            }
        }
    }
    state = setCycle({ ...state, successfulIterations: state.successfulIterations + 1, environmentFailures: 0 }, { timeoutRetries: 0, rateLimitAttempts: 0 });
    // Defensive validation of the report (seed 004).
    const current = state.currentCycle;
    const decision = decideContinuation(result.report, { workRemaining: current.lastWorkRemaining, sameCount: current.sameWorkRemainingCount });
    state = setCycle(state, { lastWorkRemaining: decision.workRemaining, sameWorkRemainingCount: decision.sameWorkRemainingCount });
    record.workRemaining = decision.workRemaining;
    let violation;
    if (decision.contractViolation) {
        const { workRemaining } = decision.contractViolation;
        violation = {
            timestamp: rfc3339(clock.now()), type: 'validation_error', iteration: n, issueIds: cycle.issueIds,
            message: 'Agent contract violation: requires_continuation=false with work_remaining non-empty',
            details: { work_remaining: workRemaining, requires_continuation: false, override: settings.strict ? 'halt' : 'forced_true' },
        };
        if (settings.strict) {
            logger.error('validation.violation', `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; --strict halts.`);
            return {
                state: close(state, { ...record, outcome: 'contract_violation' }), violation,
                halt: { reason: 'contract_violation', message: `Agent contract violation at iteration ${n}: requires_continuation=false with work_remaining "${workRemaining}" (--strict)` },
            };
        }
        logger.warn('validation.override', `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; overriding to continue (logged to errors.jsonl).`, { iteration: n, workRemaining });
    }
    if (decision.stuck) {
        logger.error('cycle.stuck', `${tag} stuck on ${describeTargets(cycle)}: ${decision.stuck}.`);
        const t = step(state, { type: 'escalate', reason: `stuck: ${decision.stuck}` });
        return { state: close(t.state, { ...record, outcome: 'stuck' }), violation, escalate: { reason: `stuck: ${decision.stuck}`, bounceLoop: false } };
    }
    // Completion check: the targets are closed in the source, or the report says no work remains.
    const closed = await Promise.all(cycle.issueIds.map(async (id) => { const i = await source.get(id); return i ? isClosed(i) : false; }));
    if (!isCycleComplete(closed, decision.reportSaysDone)) {
        logger.info('iteration.end', `${tag} agent ok in ${seconds(result.durationMs)}; work remains${decision.workRemaining ? `: ${decision.workRemaining}` : ''}.`, { iteration: n, outcome: 'continuing' });
        return { state: close(state, record), violation };
    }
    // implement → verify. Its precondition: the agent's "done" left something to verify.
    state = step(state, { type: 'succeeded' }).state;
    const base = state.baseBranch;
    if (git && base && !closed.every(Boolean) && !(await git.hasWorkSince(base))) {
        const reason = 'the agent reported the work done but changed nothing and did not close the issue';
        logger.warn('step.bounce', `${tag} verify cannot start: ${reason}; back to implement.`, { iteration: n, from: 'verify', to: 'implement' });
        const t = step(state, { type: 'precondition_failed', reason });
        state = setCycle(t.state, { lastFailure: { kind: 'agent', message: `You reported the work done, but ${reason.replace('the agent reported the work done but ', '')}. Make the change, or close the issue if nothing is needed.`, tail: '' } });
        const bounced = close(state, { ...record, outcome: 'bounced' });
        if (t.decision.kind === 'escalate')
            return { state: bounced, violation, escalate: { reason: t.decision.reason, bounceLoop: t.decision.bounceLoop } };
        return { state: bounced, violation };
    }
    // The test gate.
    logger.info('tests.start', `${tag} the agent says the work is done; running the tests: ${settings.testCommand}`, { iteration: n, command: settings.testCommand });
    const tests = await deps.runTests(settings.testCommand, deps.signal);
    if (deps.signal?.aborted)
        return { state: before, interrupted: true };
    record.tests = { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) };
    state = { ...state, testsPassed: tests.passed };
    if (!tests.passed) {
        logger.warn('tests.failed', `${tag} tests failed (exit code ${tests.exitCode}, ${seconds(tests.durationMs)}); the next iteration gets the failure as context.`, { iteration: n, exitCode: tests.exitCode });
        state = setCycle({ ...state, testFailures: state.testFailures + 1 }, { lastFailure: { kind: 'tests', message: `\`${settings.testCommand}\` exited with code ${tests.exitCode}`, tail: tests.tail } });
        const t = step(state, { type: 'failed', reason: `tests failed (exit code ${tests.exitCode})`, resumeAt: 0 });
        state = close(t.state, { ...record, outcome: 'tests_failed' });
        if (t.decision.kind === 'escalate')
            return { state, violation, escalate: { reason: t.decision.reason, bounceLoop: false } };
        return { state, violation };
    }
    // Success: close what the agent did not; with pull requests, their merge closes the issues.
    const viaPullRequest = settings.onSuccess === 'pull-request';
    if (!viaPullRequest) {
        for (const [i, id] of cycle.issueIds.entries()) {
            if (!closed[i])
                await source.close(id, `agent-loop: tests passed at iteration ${n}`);
        }
    }
    logger.info('cycle.complete', `${tag} ${describeTargets(cycle)} done: tests passed in ${seconds(tests.durationMs)}; ${viaPullRequest ? 'a pull request follows' : `closed ${cycle.issueIds.join(', ')}`}.`, { iteration: n, issueIds: cycle.issueIds });
    state = {
        ...state, consecutiveEscalations: 0,
        issuesClosed: [...state.issuesClosed, ...cycle.issueIds.filter((id) => !state.issuesClosed.includes(id))],
        completedIterations: [...state.completedIterations, n],
    };
    return { state: close(state, { ...record, outcome: 'complete' }), violation, cycleDone: true };
}
function logUsage(deps, n, result, state) {
    if (result.costUsd === undefined && !result.tokens && result.turns === undefined)
        return;
    const parts = [
        result.turns !== undefined ? `${result.turns} turns` : undefined,
        result.tokens ? `${result.tokens.input} tokens in, ${result.tokens.output} out` : undefined,
        result.costUsd !== undefined ? `$${result.costUsd.toFixed(4)} (run total $${state.costUsd.toFixed(4)})` : undefined,
    ].filter(Boolean);
    deps.logger.info('agent.usage', `[iteration ${n}/${deps.settings.maxIterations}] ${deps.agent.displayName}: ${parts.join(', ')}`, {
        iteration: n, costUsd: result.costUsd ?? null, totalCostUsd: state.costUsd, turns: result.turns ?? null,
        tokens: result.tokens ?? null, totalTokens: state.tokens, sessionId: result.sessionId ?? null,
    });
}
/** The iteration's record and the loop state once the agent has run: counters, spend, output tail. Pure. */
function afterAgentRun(before, cycle, n, started, result) {
    const record = {
        n, issueIds: cycle.issueIds, startedAt: rfc3339(started), durationMs: 0, outcome: 'continuing',
        agent: {
            ok: result.ok, exitCode: result.exitCode, signal: result.signal, durationMs: Math.round(result.durationMs),
            ...(result.failure ? { failure: result.failure } : {}), ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
            ...(result.turns !== undefined ? { turns: result.turns } : {}), ...(result.tokens ? { tokens: result.tokens } : {}),
        },
    };
    const state = {
        ...before, iteration: n, costUsd: before.costUsd + (result.costUsd ?? 0),
        tokens: { input: before.tokens.input + (result.tokens?.input ?? 0), output: before.tokens.output + (result.tokens?.output ?? 0) },
        lastAgentOutput: result.outputTail.slice(-OUTPUT_KEPT),
        currentCycle: { ...cycle, iterations: cycle.iterations + 1 },
    };
    return { record, state };
}
function describeTargets(cycle) {
    return cycle.issueIds.map((id, i) => `${id} "${cycle.titles[i] ?? ''}"`).join(', ');
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

;// CONCATENATED MODULE: ./src/tdd/decide.ts
/** Seed 003: "Default retry limit: 5 retries (6 total attempts)". */
const TDD_MAX_RETRIES = 5;
/** Seed 003: "Network timeouts: retry up to 3 times with the same timeout setting". */
const TDD_TIMEOUT_RETRIES = 3;
/** Seed 003's summary table, every row, for the log, the docs and the tests. */
const TDD_FAILURE_TABLE = [
    { scenario: 'Non-compiling test', strategy: 'Retry with error', maxRetries: TDD_MAX_RETRIES, onExhaustion: 'Abort', error: 'COMPILATION_ERROR' },
    { scenario: 'Test passes immediately', strategy: 'Skip test', maxRetries: null, onExhaustion: 'Continue', error: 'TEST_UNEXPECTED_PASS' },
    { scenario: 'Duplicate test', strategy: 'Skip test', maxRetries: null, onExhaustion: 'Continue', error: 'DUPLICATE_TEST' },
    { scenario: "Can't make test pass", strategy: 'Abort', maxRetries: null, onExhaustion: 'Manual intervention', error: 'IMPLEMENTATION_FAILED' },
    { scenario: 'Implementation breaks tests', strategy: 'Retry with info', maxRetries: TDD_MAX_RETRIES, onExhaustion: 'Abort', error: 'REGRESSION' },
    { scenario: 'Refactoring breaks tests', strategy: 'Retry with info', maxRetries: TDD_MAX_RETRIES, onExhaustion: 'Rollback & continue', error: 'REGRESSION' },
    { scenario: 'API rate limit', strategy: 'Exponential backoff', maxRetries: null, onExhaustion: '—', error: 'API_RATE_LIMIT' },
    { scenario: 'Network timeout', strategy: 'Retry same timeout', maxRetries: TDD_TIMEOUT_RETRIES, onExhaustion: 'Abort', error: 'NETWORK_TIMEOUT' },
];
const ROLLBACK_MESSAGE = 'refactor: no changes (tests would break)';
function decidePhase(o) {
    const attempts = o.retries + 1;
    const details = o.tests.summary;
    const retryOr = (error, exhausted) => (o.retries < TDD_MAX_RETRIES ? { kind: 'retry', error } : exhausted());
    const abort = (type, message) => ({ kind: 'abort', error: { type, message, details } });
    const compileError = (what) => retryOr({ type: 'COMPILATION_ERROR', message: `${what} does not compile (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`, details }, () => abort('COMPILATION_ERROR', `${what} still does not compile after ${attempts} attempts`));
    switch (o.phase) {
        case 'RED': {
            if (o.reportedDuplicate || !o.changed) {
                return { kind: 'skip', mark: 'duplicate', error: { type: 'DUPLICATE_TEST', message: `No new test for "${o.description}": ${o.reportedDuplicate ? 'the test agent says it already exists' : 'the test agent changed nothing'}`, details } };
            }
            if (o.tests.passed) {
                return { kind: 'skip', mark: 'problematic', error: { type: 'TEST_UNEXPECTED_PASS', message: `The new test for "${o.description}" passes before any implementation: it does not test new behaviour`, details } };
            }
            if (o.tests.compileError)
                return compileError('The new test');
            return { kind: 'commit', message: `test: ${o.description}`, next: 'GREEN', testResult: 'FAIL' };
        }
        case 'GREEN': {
            if (o.tests.passed)
                return { kind: 'commit', message: `feat: ${o.description}`, next: 'REFACTOR', testResult: 'PASS' };
            if (o.tests.compileError)
                return compileError('The implementation');
            const broken = o.targetTests.length > 0 ? o.tests.failing.filter((name) => !o.targetTests.includes(name)) : [];
            if (broken.length > 0) {
                return retryOr({ type: 'REGRESSION', message: `The implementation breaks ${broken.length} test(s) that passed: ${broken.slice(0, 5).join(', ')}`, details }, () => abort('REGRESSION', `The implementation still breaks other tests after ${attempts} attempts: ${broken.slice(0, 5).join(', ')}`));
            }
            return retryOr({ type: 'TEST_UNEXPECTED_FAIL', message: `The test for "${o.description}" still fails (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`, details }, () => abort('IMPLEMENTATION_FAILED', `Could not make test pass after ${attempts} attempts`));
        }
        case 'REFACTOR': {
            if (o.tests.passed)
                return { kind: 'commit', message: o.changed ? `refactor: ${o.description}` : 'refactor: no changes', next: 'next-test', testResult: 'PASS' };
            const error = o.tests.compileError
                ? { type: 'COMPILATION_ERROR', message: `The refactoring does not compile (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`, details }
                : { type: 'REGRESSION', message: `The refactoring breaks ${o.tests.failing.length} test(s): ${o.tests.failing.slice(0, 5).join(', ')}`, details };
            return retryOr(error, () => ({ kind: 'rollback', message: ROLLBACK_MESSAGE, error: { ...error, message: `The refactoring still breaks tests after ${attempts} attempts; rolled back` } }));
        }
    }
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
var external_node_os_default = /*#__PURE__*/__nccwpck_require__.n(external_node_os_namespaceObject);
;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/iso.js



function iso_datetime(params) {
    return _isoDateTime(ZodISODateTime, params);
}
function iso_date(params) {
    return core._isoDate(ZodISODate, params);
}
function iso_time(params) {
    return core._isoTime(ZodISOTime, params);
}
function iso_duration(params) {
    return core._isoDuration(ZodISODuration, params);
}

;// CONCATENATED MODULE: ./src/tdd/notes.ts
/**
 * The red/green/refactor workflow's handoff state (seed 003, "Error State in Git Notes"): one JSON
 * note on each phase commit, under `refs/notes/agent-loop`. The note travels with the branch's
 * history, so a run resumes from the newest note on the branch without a `--resume` flag, and a
 * rollback (`git reset --hard`) takes the state back with the commits.
 */






const NOTES_REF = 'refs/notes/agent-loop';
/** Seed 003's "Error Types" table, in its order. */
const TDD_ERROR_TYPES = [
    'COMPILATION_ERROR',
    'TEST_UNEXPECTED_PASS',
    'TEST_UNEXPECTED_FAIL',
    'IMPLEMENTATION_FAILED',
    'REGRESSION',
    'DUPLICATE_TEST',
    'API_RATE_LIMIT',
    'NETWORK_TIMEOUT',
    'WORKFLOW_ABORTED',
];
/** The workflow's phases, spelled as in the seed's example (`"phase": "GREEN"`). */
const TDD_PHASES = ['RED', 'GREEN', 'REFACTOR'];
const TDD_TEST_RESULTS = ['PASS', 'FAIL'];
const notes_TddErrorSchema = object({
    type: schemas_enum(TDD_ERROR_TYPES),
    message: schemas_string(),
    details: schemas_string(),
    /** Attempts made so far (the seed's example: 6 after "5 retries (6 total attempts)"). */
    retry_count: schemas_number().int().min(0),
    /** RFC 3339, e.g. "2025-01-22T10:30:00Z". */
    timestamp: iso_datetime({ offset: true }),
});
/**
 * The note. Field names are the seed's (snake_case, as stored); `error` is present only "when an
 * error occurs": absent or null otherwise. Unknown keys are dropped on read.
 */
const TddNoteSchema = object({
    /** The phase this commit finished (or failed in). */
    phase: schemas_enum(TDD_PHASES),
    /** Where a resumed run starts. */
    next_phase: schemas_enum(TDD_PHASES),
    /** The red/green/refactor cycle, from 1. */
    cycle: schemas_number().int().min(1),
    current_test: object({
        description: schemas_string(),
        test_file: schemas_string(),
    }),
    test_result: schemas_enum(TDD_TEST_RESULTS),
    error: notes_TddErrorSchema.nullable().optional(),
});
/**
 * Git in `cwd`. Writing a note makes a commit on the notes ref, which needs an identity: when the
 * repository has none configured (CI runners, containers), agent-loop's own is passed with `-c`.
 */
function notesGit(cwd, env = process.env) {
    const exec = (args) => new Promise((resolve) => {
        (0,external_node_child_process_namespaceObject.execFile)('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? Number(error.code) : 1) : 0;
            resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        });
    });
    let identity;
    return {
        async run(args) {
            identity ??= exec(['config', 'user.email']).then((r) => r.stdout.trim() !== '' ? [] : ['-c', 'user.name=agent-loop', '-c', 'user.email=agent-loop@users.noreply.github.com']);
            return exec([...(await identity), ...args]);
        },
    };
}
async function must(git, args) {
    const r = await git.run(args);
    if (r.code !== 0)
        throw new GitError(args, r.code, r.stderr || r.stdout);
    return r.stdout;
}
/**
 * Puts `note` on `commit`, replacing any note there. The JSON goes through a temporary file
 * (`-F`), not `-m`: a long `error.details` would exceed the kernel's limit on one argument.
 * Throws on a note that does not match the schema (it could not be read back) and on git failure.
 */
async function writeNote(git, commit, note) {
    const valid = TddNoteSchema.safeParse(note);
    if (!valid.success)
        throw new Error(`Refusing to write an invalid agent-loop note on ${commit}: ${describeIssue(valid.error)}`);
    const dir = await external_node_fs_namespaceObject.promises.mkdtemp(external_node_path_default().join(external_node_os_default().tmpdir(), 'agent-loop-note-'));
    try {
        const file = external_node_path_default().join(dir, 'note.json');
        await external_node_fs_namespaceObject.promises.writeFile(file, `${JSON.stringify(valid.data, null, 2)}\n`);
        await must(git, ['notes', '--ref', NOTES_REF, 'add', '-f', '-F', file, commit]);
    }
    finally {
        await external_node_fs_namespaceObject.promises.rm(dir, { recursive: true, force: true });
    }
}
/**
 * The note on `commit`: undefined when it has none, `{ invalid }` with the reason when the note is
 * not JSON or not a note this version understands (never a throw for those). Throws GitError when
 * git fails otherwise, e.g. `commit` does not exist.
 */
async function readNote(git, commit) {
    const args = ['notes', '--ref', NOTES_REF, 'show', commit];
    const r = await git.run(args);
    // `git notes show` exits 1 ("no note found for object"); an unknown object dies with 128.
    if (r.code === 1)
        return undefined;
    if (r.code !== 0)
        throw new GitError(args, r.code, r.stderr || r.stdout);
    return parseNote(r.stdout, commit);
}
/** Parses a note's text. Pure. */
function parseNote(text, commit) {
    let json;
    try {
        json = JSON.parse(text);
    }
    catch (error) {
        return { invalid: `the ${NOTES_REF} note on ${commit} is not JSON (${error.message})` };
    }
    const parsed = TddNoteSchema.safeParse(json);
    if (parsed.success)
        return parsed.data;
    return { invalid: `the ${NOTES_REF} note on ${commit} is not a valid TDD note (${describeIssue(parsed.error)})` };
}
function isInvalidNote(value) {
    return value !== undefined && 'invalid' in value;
}
/** How many commits back from the tip newestNote looks; TDD phase commits sit near the tip. */
const NEWEST_NOTE_DEPTH = 10_000;
/**
 * The newest commit on `branch` (first in `git rev-list` order) carrying a valid note, and the note:
 * where an interrupted run resumes. Invalid notes are skipped for the next older valid one. Only
 * commits listed by `git notes list` are read, and only the newest `depth` commits are considered.
 * `onInvalid` hears about each invalid note skipped.
 */
async function newestNote(git, branch = 'HEAD', options = {}) {
    const noted = new Set((await must(git, ['notes', '--ref', NOTES_REF, 'list']))
        .split('\n')
        .map((line) => line.trim().split(/\s+/)[1])
        .filter((commit) => commit !== undefined && commit !== ''));
    if (noted.size === 0)
        return undefined;
    const commits = (await must(git, ['rev-list', `--max-count=${options.depth ?? NEWEST_NOTE_DEPTH}`, branch, '--']))
        .split('\n')
        .map((line) => line.trim())
        .filter((commit) => noted.has(commit));
    for (const commit of commits) {
        const note = await readNote(git, commit);
        if (note === undefined)
            continue;
        if (isInvalidNote(note)) {
            options.onInvalid?.(commit, note.invalid);
            continue;
        }
        return { commit, note };
    }
    return undefined;
}
/**
 * `git` arguments to fetch the notes from `remote`, replacing the local notes (actions/checkout does
 * not fetch notes). git fails when the remote has no notes yet: callers treat that as "no state".
 */
function fetchNotesArgs(remote) {
    return ['fetch', remote, `+${NOTES_REF}:${NOTES_REF}`];
}
/** `git` arguments to push the notes to `remote` (a fast-forward of the remote's notes ref). */
function pushNotesArgs(remote) {
    return ['push', remote, NOTES_REF];
}
function describeIssue(error) {
    const first = error.issues[0];
    return first ? `${first.path.join('.') || 'note'}: ${first.message}` : 'unknown';
}

;// CONCATENATED MODULE: ./src/tdd/prompts.ts
const REPORT = `End your final message with this report block:

\`\`\`yaml
work_remaining: 0
requires_continuation: false
summary: <one line on what you did>
\`\`\``;
const DEFAULT_TEMPLATES = {
    RED: `You are the test agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

Test list:
{{tests}}

Write exactly ONE new failing test, for: {{test}}
- Only the test: do not implement the behaviour, do not change non-test code.
- It must compile and run, and fail because the behaviour is missing (not because of a syntax error or a missing import).
- If a test for this already exists, write nothing and add \`duplicate_test: true\` to the report block.
- Check it with: {{testCommand}} (it must fail, on your new test).
{{failure}}
${REPORT}
`,
    GREEN: `You are the implementing agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

The failing test for "{{test}}" is in {{testFile}}. Make it pass with the simplest change, without breaking any other test and without changing the test.
Check with: {{testCommand}} (everything must pass).
{{failure}}
${REPORT}
`,
    REFACTOR: `You are the refactor agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

All tests pass after implementing "{{test}}" (test in {{testFile}}). Improve the code's structure and names where it helps, without changing behaviour and without changing tests. Changing nothing is fine.
Every test must still pass: {{testCommand}}.
{{failure}}
${REPORT}
`,
};
/** Fills `{{name}}` placeholders; unknown ones are left as they are. */
function renderPrompt(template, values) {
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
/** The "previous attempt" section of a retry prompt. */
function failureSection(message, details) {
    return `\nThe previous attempt of this phase failed: ${message}\n\n\`\`\`\n${details.trim().slice(-4000)}\n\`\`\`\n`;
}

;// CONCATENATED MODULE: ./src/tdd/testList.ts
const ITEM = /^\s*[-*+]\s+\[( |x|X)\]\s+(.+?)\s*$/;
function parseTestList(text, fallbackDescription) {
    const items = [];
    for (const line of text.split(/\r?\n/)) {
        const m = ITEM.exec(line);
        if (!m)
            continue;
        items.push({ description: m[2].replace(/\s+/g, ' '), status: m[1] === ' ' ? 'pending' : 'done' });
    }
    return items.length > 0 ? items : [{ description: fallbackDescription.trim() || 'the issue', status: 'pending' }];
}
/** The index of the first pending test, or -1 when every test is done, problematic or a duplicate. */
function nextPending(tests) {
    return tests.findIndex((t) => t.status === 'pending');
}
/** The list with one test's status changed. */
function markTest(tests, index, status) {
    return tests.map((t, i) => (i === index ? { ...t, status } : t));
}
/** The list as a checklist for prompts and the summary (problematic and duplicate tests say so). */
function renderTestList(tests) {
    return tests.map((t) => `- [${t.status === 'pending' ? ' ' : 'x'}] ${t.description}${t.status === 'problematic' || t.status === 'duplicate' ? ` (${t.status}: skipped)` : ''}`).join('\n');
}

;// CONCATENATED MODULE: ./src/tdd/testReport.ts
/**
 * Which tests failed, and why, from the test runner: its JUnit XML report (jest-junit, pytest
 * `--junitxml`, go-junit-report, gotestsum), or its console output when there is no report. The
 * red/green/refactor workflow puts these in the retry prompt (seed 003: "Include the failing test
 * names and error messages"). Pure functions, no dependencies, bounded output, no throws.
 *
 * The report says which tests failed; whether the run failed is the test command's exit code.
 * jest-junit, for one, leaves a test file that fails to compile out of the report unless
 * `reportTestSuiteErrors` is on: a non-zero exit with no failures in the XML means "read the output".
 */
const REPORT_LIMITS = { message: 2_000, details: 4_000, failed: 50 };
/** Text kept per failure element while reading, before the final bound. */
const CAPTURE_LIMIT = 2 * REPORT_LIMITS.details;
const COUNT_FIELDS = ['tests', 'failures', 'errors', 'skipped'];
/**
 * Reads a JUnit XML report. Root `<testsuites>` or a single `<testsuite>`; `<testcase>` with
 * `<failure>`, `<error>` or `<skipped>`. Counts are the larger of what the testcases show and what
 * the suites declare (a truncated file still says how many failed). Malformed XML yields what could
 * be read and a `problem`, never an exception.
 */
function parseJUnitXml(xml) {
    const counted = { tests: 0, failures: 0, errors: 0, skipped: 0 };
    const rootDeclared = {};
    const suitesDeclared = {};
    const problems = [];
    const failed = [];
    let failing = 0;
    const stack = [];
    const suites = [];
    let root;
    let testcase;
    let capture;
    let stopped = false;
    const addFailed = (entry) => {
        failing++;
        if (failed.length < REPORT_LIMITS.failed)
            failed.push(entry);
    };
    const finishCase = (tc) => {
        const kinds = new Set(tc.captures.map((c) => c.kind));
        if (kinds.has('failure'))
            counted.failures++;
        if (kinds.has('error'))
            counted.errors++;
        if (tc.captures.length > 0)
            addFailed(failedEntry(tc.name, tc.captures, { classname: tc.classname, file: tc.file }));
        else if (tc.skipped)
            counted.skipped++;
    };
    const onOpen = (name, attrs) => {
        if (name === 'testsuite') {
            if (stack.length === 0)
                addDeclared(rootDeclared, attrs);
            else if (stack.length === 1 && root === 'testsuites')
                addDeclared(suitesDeclared, attrs);
            suites.push(attrs.name ?? '');
        }
        else if (name === 'testsuites' && stack.length === 0) {
            addDeclared(rootDeclared, attrs);
        }
        else if (name === 'testcase') {
            if (testcase)
                finishCase(testcase); // a testcase inside a testcase: close the outer one
            counted.tests++;
            testcase = { name: attrs.name ?? '', captures: [], skipped: false };
            if (attrs.classname)
                testcase.classname = attrs.classname;
            if (attrs.file)
                testcase.file = attrs.file;
        }
        else if ((name === 'failure' || name === 'error') && (testcase || suites.length > 0)) {
            capture = { kind: name, text: '' };
            if (attrs.message !== undefined)
                capture.message = attrs.message;
        }
        else if (name === 'skipped' && testcase) {
            testcase.skipped = true;
        }
    };
    const onClose = (name) => {
        if ((name === 'failure' || name === 'error') && capture) {
            if (testcase)
                testcase.captures.push(capture);
            else {
                // A failure outside any testcase: the suite itself failed (e.g. could not be loaded).
                if (capture.kind === 'failure')
                    counted.failures++;
                else
                    counted.errors++;
                addFailed(failedEntry(suites.at(-1) || 'testsuite', [capture], {}));
            }
            capture = undefined;
        }
        else if (name === 'testcase' && testcase) {
            finishCase(testcase);
            testcase = undefined;
        }
        else if (name === 'testsuite') {
            suites.pop();
        }
    };
    for (const token of tokenize(xml)) {
        if (token.kind === 'problem') {
            problems.push(token.message);
        }
        else if (token.kind === 'text') {
            if (capture && capture.text.length < CAPTURE_LIMIT)
                capture.text += token.text.slice(0, CAPTURE_LIMIT - capture.text.length);
        }
        else if (token.kind === 'open') {
            if (stack.length === 0) {
                if (root !== undefined) {
                    problems.push(`content after the root element </${root}> ignored`);
                    stopped = true;
                    break;
                }
                if (token.name !== 'testsuites' && token.name !== 'testsuite') {
                    problems.push(`the root element is <${token.name}>, not <testsuites> or <testsuite>`);
                    stopped = true;
                    break;
                }
                root = token.name;
            }
            onOpen(token.name, token.attrs);
            if (token.selfClosing)
                onClose(token.name);
            else
                stack.push(token.name);
        }
        else {
            const at = stack.lastIndexOf(token.name);
            if (at === -1) {
                problems.push(`</${token.name}> closes nothing`);
                continue;
            }
            const unclosed = stack.splice(at).reverse();
            if (unclosed.length > 1)
                problems.push(`${testReport_elements(unclosed.slice(0, -1), ', ')} not closed before </${token.name}>`);
            for (const name of unclosed)
                onClose(name);
        }
    }
    if (stack.length > 0 && !stopped) {
        problems.push(`the XML ends inside ${testReport_elements(stack, ' ')}`);
        for (const name of stack.splice(0).reverse())
            onClose(name);
    }
    if (root === undefined && problems.length === 0)
        problems.push('no <testsuites> or <testsuite> element (empty or not JUnit XML)');
    const declared = (field) => rootDeclared[field] ?? suitesDeclared[field] ?? 0;
    const report = {
        tests: Math.max(counted.tests, declared('tests')),
        failures: Math.max(counted.failures, declared('failures')),
        errors: Math.max(counted.errors, declared('errors')),
        skipped: Math.max(counted.skipped, declared('skipped')),
        failed,
        omitted: failing - failed.length,
    };
    if (problems.length > 0) {
        report.problem = problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (and ${problems.length - 3} more problems)` : '');
    }
    return report;
}
/** Element names for a problem message, the first few only (the nesting may be deep). */
function testReport_elements(names, separator) {
    const shown = names.slice(0, 6).map((n) => `<${n}>`).join(separator);
    return names.length > 6 ? `${shown}${separator}… (${names.length - 6} more)` : shown;
}
function addDeclared(into, attrs) {
    for (const field of COUNT_FIELDS) {
        const raw = attrs[field] ?? (field === 'skipped' ? attrs.disabled : undefined);
        if (raw === undefined || !/^\s*\d+\s*$/.test(raw))
            continue;
        into[field] = (into[field] ?? 0) + Number(raw);
    }
}
function failedEntry(name, captures, where) {
    const first = captures[0];
    const text = captures.map((c) => c.text.trim()).filter((t) => t !== '').join('\n\n');
    const given = first?.message?.trim() ?? '';
    const message = isGeneric(given) ? messageFromText(first?.text ?? '') || given : given;
    const entry = { name, message: testReport_clip(message, REPORT_LIMITS.message), details: testReport_clip(text, REPORT_LIMITS.details) };
    if (where.classname)
        entry.classname = where.classname;
    if (where.file)
        entry.file = where.file;
    return entry;
}
/** go-junit-report and gotestsum say message="Failed" for every failure: the text says why. */
function isGeneric(message) {
    return /^(failed|failure|error)?$/i.test(message);
}
const STACK_FRAME = /^\s+at\s/;
const GO_MARKER = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (FAIL|PASS|SKIP):)/;
/** The part of a failure's text before its stack trace, without go's test markers. */
function messageFromText(text) {
    const lines = [];
    for (const line of text.split('\n')) {
        if (STACK_FRAME.test(line))
            break;
        if (!GO_MARKER.test(line))
            lines.push(line.trimEnd());
    }
    return testReport_dedent(lines).join('\n').trim();
}
function testReport_dedent(lines) {
    const common = lines.reduce((min, l) => (l.trim() === '' ? min : Math.min(min, /^\s*/.exec(l)?.[0].length ?? 0)), Infinity);
    return Number.isFinite(common) ? lines.map((l) => l.slice(Math.min(common, l.length))) : lines;
}
/** `text` cut to at most `max` characters, marked with "…" when cut, never splitting a surrogate pair. */
function testReport_clip(text, max) {
    if (text.length <= max)
        return text;
    let end = max - 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff)
        end--;
    return `${text.slice(0, end)}…`;
}
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Decodes the five XML entities and numeric character references; anything else is left as written. */
function decodeEntities(text) {
    if (!text.includes('&'))
        return text;
    return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref) => {
        if (ref.startsWith('#')) {
            const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
            const valid = Number.isFinite(code) && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
            return valid ? String.fromCodePoint(code) : whole;
        }
        return ENTITIES[ref] ?? whole;
    });
}
const NAME = /[A-Za-z_:][-\w.:]*/y;
const ATTR_NAME = /[^\s=/>]+/y;
const SPACE = /\s*/y;
const UNQUOTED = /[^\s>]+/y;
function matchAt(re, text, at) {
    re.lastIndex = at;
    return re.exec(text)?.[0];
}
/** XML tokens: tags with their attributes, text (entities decoded, CDATA verbatim), and problems. */
function* tokenize(xml) {
    let i = 0;
    while (i < xml.length) {
        const lt = xml.indexOf('<', i);
        if (lt === -1) {
            yield { kind: 'text', text: decodeEntities(xml.slice(i)) };
            return;
        }
        if (lt > i)
            yield { kind: 'text', text: decodeEntities(xml.slice(i, lt)) };
        const skipTo = (close, from) => {
            const end = xml.indexOf(close, from);
            return end === -1 ? undefined : end + close.length;
        };
        if (xml.startsWith('<!--', lt)) {
            const next = skipTo('-->', lt + 4);
            if (next === undefined) {
                yield { kind: 'problem', message: 'unterminated comment' };
                return;
            }
            i = next;
        }
        else if (xml.startsWith('<![CDATA[', lt)) {
            const end = xml.indexOf(']]>', lt + 9);
            if (end === -1) {
                yield { kind: 'text', text: xml.slice(lt + 9) };
                yield { kind: 'problem', message: 'unterminated CDATA section' };
                return;
            }
            yield { kind: 'text', text: xml.slice(lt + 9, end) };
            i = end + 3;
        }
        else if (xml.startsWith('<?', lt) || xml.startsWith('<!', lt)) {
            const next = skipTo(xml[lt + 1] === '?' ? '?>' : '>', lt + 2);
            if (next === undefined) {
                yield { kind: 'problem', message: 'unterminated declaration' };
                return;
            }
            i = next;
        }
        else if (xml.startsWith('</', lt)) {
            const end = xml.indexOf('>', lt + 2);
            if (end === -1) {
                yield { kind: 'problem', message: 'unterminated closing tag' };
                return;
            }
            yield { kind: 'close', name: xml.slice(lt + 2, end).trim() };
            i = end + 1;
        }
        else {
            const name = matchAt(NAME, xml, lt + 1);
            if (name === undefined) {
                // A bare "<" in text is not well-formed; keep it as text and go on.
                yield { kind: 'text', text: '<' };
                i = lt + 1;
                continue;
            }
            const tag = readAttributes(xml, lt + 1 + name.length);
            if (tag === undefined) {
                yield { kind: 'problem', message: `unterminated tag <${name}` };
                return;
            }
            yield { kind: 'open', name, attrs: tag.attrs, selfClosing: tag.selfClosing };
            i = tag.next;
        }
    }
}
/** The attributes from `at` to the end of the tag; undefined when the input ends first. Quoted values may hold ">". */
function readAttributes(xml, at) {
    const attrs = {};
    let i = at;
    for (;;) {
        i += matchAt(SPACE, xml, i)?.length ?? 0;
        if (i >= xml.length)
            return undefined;
        if (xml.startsWith('/>', i))
            return { attrs, selfClosing: true, next: i + 2 };
        if (xml[i] === '>')
            return { attrs, selfClosing: false, next: i + 1 };
        const name = matchAt(ATTR_NAME, xml, i);
        if (name === undefined) {
            i++;
            continue;
        } // a stray "/" or "="
        i += name.length;
        i += matchAt(SPACE, xml, i)?.length ?? 0;
        if (xml[i] !== '=') {
            attrs[name] = '';
            continue;
        }
        i++;
        i += matchAt(SPACE, xml, i)?.length ?? 0;
        const quote = xml[i];
        if (quote === '"' || quote === "'") {
            const end = xml.indexOf(quote, i + 1);
            if (end === -1)
                return undefined;
            attrs[name] = decodeEntities(xml.slice(i + 1, end));
            i = end + 1;
        }
        else {
            const value = matchAt(UNQUOTED, xml, i) ?? '';
            attrs[name] = decodeEntities(value);
            i += value.length;
        }
    }
}
/** "suite › name", or the name alone when it already says the suite (jest-junit's default). */
function failureLabel(f) {
    const { name, classname } = f;
    if (!classname || classname === name || name.startsWith(classname))
        return name || classname || '(unnamed test)';
    return name ? `${classname} › ${name}` : classname;
}
/**
 * The failures as text for a retry prompt: a count, then one line per failure (name and first line
 * of its message) with up to CONTEXT_LINES lines of context indented below, at most `max` failures.
 */
function summariseFailures(report, max = 10) {
    const total = Math.max(report.failed.length + report.omitted, report.failures + report.errors);
    const incomplete = report.problem ? `(The test report could not be read completely: ${report.problem}.)` : '';
    if (total === 0)
        return report.problem ? `No failing tests found in the test report. ${incomplete}` : 'No failing tests.';
    const shown = report.failed.slice(0, Math.max(0, max));
    const lines = [`${total} failing test${total === 1 ? '' : 's'}:`];
    for (const f of shown) {
        const [head = '', ...rest] = nonEmptyLines(f.message);
        lines.push(`- ${failureLabel(f)}: ${testReport_clip(head.trim(), 300) || '(no message)'}`);
        for (const line of contextLines(rest, f.details, head))
            lines.push(`    ${testReport_clip(line, 200)}`);
    }
    if (total > shown.length)
        lines.push(`- … and ${total - shown.length} more`);
    if (incomplete)
        lines.push(incomplete);
    return lines.join('\n');
}
const CONTEXT_LINES = 5;
/** The message's further lines, or else the telling lines of the details (pytest's "E " lines when there are any). */
function contextLines(restOfMessage, details, head) {
    if (restOfMessage.length > 0)
        return testReport_dedent(restOfMessage).map((l) => l.trimEnd()).slice(0, CONTEXT_LINES);
    const useful = nonEmptyLines(details).filter((l) => !STACK_FRAME.test(l) && !GO_MARKER.test(l) && l.trim() !== head.trim());
    const pytestErrors = useful.filter((l) => /^E\s/.test(l));
    return testReport_dedent(pytestErrors.length > 0 ? pytestErrors : useful).map((l) => l.trimEnd()).slice(0, CONTEXT_LINES);
}
function nonEmptyLines(text) {
    return text.split('\n').filter((l) => l.trim() !== '');
}
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
const JEST_HEADER = /^\s*● (.+?)\s*$/;
const JEST_BLOCK_END = /^\s*(FAIL|PASS)\s+\S|^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b|^\s*Summary of all failing tests/;
const JEST_CODE_FRAME = /^\s*>?\s*\d+\s*\|/;
const PYTEST_SUMMARY = /^(FAILED|ERROR) (\S.*?)(?: - (.*))?$/;
const GO_FAIL = /^(\s*)--- FAIL: (\S+) \([\d.]+m?s\)/;
const GO_BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;
/**
 * Failures read from a runner's console output, for when there is no JUnit XML: jest's
 * `● Suite › test` blocks, pytest's `FAILED path::test - message` summary lines, go's
 * `--- FAIL: TestName` lines (and `FAIL pkg [build failed]`). Repeats are dropped; at most
 * REPORT_LIMITS.failed, messages at most REPORT_LIMITS.message characters.
 */
function failuresFromOutput(output) {
    const lines = output.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
    const found = [];
    const seen = new Set();
    const add = (name, message) => {
        const key = `${name}\n${message}`;
        if (seen.has(key) || found.length >= REPORT_LIMITS.failed)
            return;
        seen.add(key);
        found.push({ name, message: testReport_clip(message, REPORT_LIMITS.message) });
    };
    let jestFile;
    for (let i = 0; i < lines.length && found.length < REPORT_LIMITS.failed; i++) {
        const line = lines[i] ?? '';
        const fileLine = /^\s*FAIL\s+(\S+\.[A-Za-z]+)\s*/.exec(line);
        if (fileLine && !GO_BUILD_FAILED.test(line))
            jestFile = fileLine[1];
        const jest = JEST_HEADER.exec(line);
        if (jest?.[1] && jest[1] !== 'Console') {
            const header = jest[1];
            const name = header === 'Test suite failed to run' && jestFile ? `${jestFile} › ${header}` : header;
            add(name, jestMessage(lines, i + 1));
            continue;
        }
        const pytest = PYTEST_SUMMARY.exec(line.trimEnd());
        if (pytest?.[2] && /::|\.py\b/.test(pytest[2])) {
            add(pytest[2], pytest[3] ?? '');
            continue;
        }
        const go = GO_FAIL.exec(line);
        if (go?.[2]) {
            add(go[2], goMessage(lines, i, go[1]?.length ?? 0, go[2]));
            continue;
        }
        const build = GO_BUILD_FAILED.exec(line);
        if (build?.[1])
            add(build[1], goBuildMessage(lines, i, build[1]) || build[2] || 'build failed');
    }
    return found;
}
/** Lines read into one message from console output (the message is cut to REPORT_LIMITS.message anyway). */
const MESSAGE_LINES = 100;
/** A jest failure block's message: its lines up to the code frame or stack trace. */
function jestMessage(lines, from) {
    const block = [];
    for (let j = from; j < lines.length && block.length < MESSAGE_LINES; j++) {
        const line = lines[j] ?? '';
        if (JEST_HEADER.test(line) || JEST_BLOCK_END.test(line) || JEST_CODE_FRAME.test(line) || STACK_FRAME.test(line))
            break;
        block.push(line.trimEnd());
    }
    return testReport_dedent(block).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
/**
 * A go test's log lines: those indented under its `--- FAIL` line (go test without -v), or else
 * those printed since its `=== RUN` (go test -v prints them as they happen).
 */
function goMessage(lines, at, indent, name) {
    const after = [];
    for (let j = at + 1; j < lines.length && after.length < MESSAGE_LINES; j++) {
        const line = lines[j] ?? '';
        const lineIndent = /^\s*/.exec(line)?.[0].length ?? 0;
        if (line.trim() === '' || lineIndent <= indent || GO_MARKER.test(line))
            break;
        after.push(line);
    }
    if (after.length > 0)
        return testReport_dedent(after).join('\n').trim();
    const before = [];
    for (let j = at - 1; j >= 0 && j >= at - 200; j--) {
        const line = lines[j] ?? '';
        const marker = /^\s*=== (RUN|CONT|NAME|PAUSE)\s+(\S+)/.exec(line);
        if (marker) {
            if (marker[2] === name)
                break;
            return ''; // another test's output: nothing of ours in between
        }
        if (GO_MARKER.test(line))
            return '';
        before.unshift(line);
    }
    return testReport_dedent(before.filter((l) => l.trim() !== '')).join('\n').trim();
}
/** The compiler output go prints under `# pkg` before `FAIL pkg [build failed]`. */
function goBuildMessage(lines, at, pkg) {
    let start = -1;
    for (let j = at - 1; j >= 0 && j >= at - 500 && start === -1; j--) {
        const line = lines[j] ?? '';
        if (line.trim() === `# ${pkg}` || line.startsWith(`# ${pkg} `))
            start = j;
    }
    if (start === -1)
        return '';
    const block = [];
    for (let j = start + 1; j < at && block.length < MESSAGE_LINES; j++) {
        const line = lines[j] ?? '';
        if (line.startsWith('#') || line.startsWith('FAIL') || line.startsWith('ok ') || line.trim() === '')
            break;
        block.push(line.trimEnd());
    }
    return block.join('\n');
}

;// CONCATENATED MODULE: ./src/tdd/iteration.ts
/**
 * One iteration of the red/green/refactor workflow (--workflow tdd, seed 003): one agent run for
 * the current phase of the current test, the tests, then decide.ts's decision carried out: a phase
 * commit with its git note, a retry with the failure as context, a skipped test, a rolled-back
 * refactoring, or an abort that halts the run with the error type. Agent failures follow seed 003
 * too: rate limits back off without limit, network timeouts are retried 3 times, anything else
 * counts as a failed attempt of the phase.
 */











async function runTddIteration(deps, initial) {
    let before = initial;
    const { settings, logger, clock, source, agent, git } = deps;
    const notes = git ? notesGit(git.topLevel) : undefined;
    const cycle = before.currentCycle;
    const [issueId = ''] = cycle.issueIds;
    const issue = (await source.get(issueId)) ?? { id: issueId, title: cycle.titles[0] ?? issueId, body: '' };
    let tdd = await syncWithNotes(deps, notes, before.baseBranch, cycle.tdd ?? initialTdd(settings.plan ?? issue.body, issue.title));
    if (before.tddError) {
        // The run goes on after an abort (a person stepped in): the phase gets its attempts afresh.
        before = { ...before, tddError: undefined };
        tdd = { ...tdd, retries: 0, lastError: undefined };
    }
    const setTdd = (s, patch) => ({ ...s, currentCycle: { ...s.currentCycle, tdd: { ...tdd, ...patch } } });
    if (nextPending(tdd.tests) === -1)
        return finishCycle(deps, setTdd(before, {}), issueId);
    if (tdd.tests[tdd.index]?.status !== 'pending')
        tdd = { ...tdd, index: nextPending(tdd.tests) };
    const n = before.iteration + 1;
    const started = clock.now();
    const test = tdd.tests[tdd.index]?.description ?? issue.title;
    const tag = `[iteration ${n}/${settings.maxIterations}] ${tdd.phase} ${tdd.round}`;
    const phaseBase = tdd.phaseBase ?? (git ? await git.head() : undefined);
    tdd = { ...tdd, phaseBase };
    const template = deps.tddSettings?.templates?.[tdd.phase] ?? DEFAULT_TEMPLATES[tdd.phase];
    const prompt = (deps.redact ?? ((t) => t))(renderPrompt(template, {
        issue: `${issue.id}: ${issue.title}\n\n${issue.body.trim() || '(no description)'}`,
        test, tests: renderTestList(tdd.tests), testCommand: settings.testCommand, testFile: tdd.testFile || '(see the last commit)',
        failure: tdd.lastError ? failureSection(tdd.lastError.message, tdd.lastError.details) : '', attempt: `${tdd.retries + 1} of ${TDD_MAX_RETRIES + 1}`,
    }));
    const promptFile = external_node_path_default().join(deps.stateDir, 'prompt.md');
    await external_node_fs_namespaceObject.promises.writeFile(promptFile, prompt);
    logger.info('iteration.start', `${tag} ${issue.id} "${test}" (${tdd.phase === 'RED' ? 'test agent' : tdd.phase === 'GREEN' ? 'implementing agent' : 'refactor agent'}) …`, { iteration: n, issueIds: cycle.issueIds, phase: tdd.phase, test });
    const result = await agent.run({
        prompt, iteration: n, issueIds: cycle.issueIds, cwd: deps.cwd, promptFile,
        timeoutMs: settings.agentTimeoutMinutes * 60_000, signal: deps.signal,
        onLine: (line, stream, cut) => logger.output('agent', line, stream, cut),
        logFile: external_node_path_default().join(deps.stateDir, 'logs', `iteration-${n}.ndjson`),
    });
    if (deps.signal?.aborted)
        return { state: before, interrupted: true };
    if (settings.iterationDelaySeconds > 0)
        await clock.sleep(settings.iterationDelaySeconds * 1000, deps.signal);
    const after = afterAgentRun(before, cycle, n, started, result);
    const record = after.record;
    let state = { ...after.state, currentCycle: { ...after.state.currentCycle, tdd } };
    const close = (s, outcome, decision, error) => appendHistory(s, { ...record, outcome, durationMs: clock.now().getTime() - started.getTime(), tdd: { phase: tdd.phase, test, decision, ...(error ? { error: error.type } : {}) } });
    const abort = async (s, error, attempts) => {
        const tddError = { ...error, retry_count: attempts, timestamp: rfc3339(clock.now()) };
        let aborted = s;
        if (notes && git) {
            // The failed attempt is kept as a wip: commit of the cycle's branch, carrying the error's note
            // (never a note on the base branch's commit, where the next issue's cycle would find it).
            await git.commitAll(`wip: ${tdd.phase} aborted (${error.type}): ${test}`.slice(0, 120), { allowEmpty: true });
            const commit = await git.head();
            await writeNote(notes, commit, noteOf(tdd, test, tdd.phase, tdd.phase, 'FAIL', tddError));
            tdd = { ...tdd, lastCommit: commit };
            aborted = setTdd(s, { lastCommit: commit });
        }
        logger.error('tdd.aborted', `${tag} ${error.type}: ${error.message}. Commits and notes are kept for inspection.`, { iteration: n, type: error.type, phase: tdd.phase });
        return {
            state: close({ ...aborted, tddError }, 'stuck', 'abort', error),
            halt: { reason: 'workflow_aborted', message: `TDD WORKFLOW ABORTED (${error.type}) at ${tdd.phase} for "${test}": ${error.message}` },
        };
    };
    // The agent's own failures (seed 003: rate limits, network timeouts; anything else is a failed attempt).
    if (result.failure) {
        const failure = result.failure;
        const kind = failureKind(failure);
        logger.event('iteration.failed', failure.class === 'permanent' ? 'error' : 'warn', `${agent.displayName} iteration ${n} failed: ${failure.message} (${failure.class} ${failure.reason})`, { iteration: n, class: failure.class, reason: failure.reason, policy: kind });
        state = { ...state, failedIterations: state.failedIterations + 1 };
        const c = () => state.currentCycle;
        if (kind === 'rate_limit') {
            const attempts = c().rateLimitAttempts + 1;
            state = { ...state, currentCycle: { ...c(), rateLimitAttempts: attempts } };
            logger.warn('tdd.rate_limited', `${tag} API_RATE_LIMIT: retry ${attempts} after the backoff.`);
            return { state: close(state, 'agent_failed', 'backoff', { type: 'API_RATE_LIMIT', message: failure.message, details: '' }), waitMs: backoffMs(POLICIES.rate_limit, attempts, failure.retryAfterMs) };
        }
        if (kind === 'timeout') {
            const attempts = c().timeoutRetries + 1;
            state = { ...state, currentCycle: { ...c(), timeoutRetries: attempts } };
            const error = { type: 'NETWORK_TIMEOUT', message: `${failure.message} (${attempts} attempts with the same timeout)`, details: result.outputTail.slice(-2000) };
            if (attempts > TDD_TIMEOUT_RETRIES)
                return abort(state, error, attempts);
            return { state: close(state, 'agent_failed', 'retry', error) };
        }
        if (kind === 'permanent_environment') {
            const attempts = state.environmentFailures + 1;
            state = { ...state, environmentFailures: attempts };
            if (exhausted(POLICIES.permanent_environment, attempts)) {
                return { state: close(state, 'agent_failed', 'halt'), halt: { reason: 'agent_unavailable', message: `AGENT UNAVAILABLE: ${attempts} environment failures in a row (${failure.reason}): ${failure.message}`, advice: environmentAdvice(failure.reason) } };
            }
            return { state: close(state, 'agent_failed', 'retry') };
        }
        const error = { type: 'WORKFLOW_ABORTED', message: `the ${tdd.phase} agent failed: ${failure.message}`, details: result.outputTail.slice(-2000) };
        if (tdd.retries >= TDD_MAX_RETRIES)
            return abort(state, error, tdd.retries + 1);
        state = setTdd(state, { retries: tdd.retries + 1, lastError: error });
        return { state: close(state, 'agent_failed', 'retry', error) };
    }
    state = { ...state, successfulIterations: state.successfulIterations + 1, environmentFailures: 0, currentCycle: { ...state.currentCycle, timeoutRetries: 0, rateLimitAttempts: 0 } };
    // The tests, and what they say about this phase.
    logger.info('tests.start', `${tag} running the tests: ${settings.testCommand}`, { iteration: n, command: settings.testCommand });
    const junit = deps.tddSettings?.junitFile ? external_node_path_default().resolve(deps.cwd, deps.tddSettings.junitFile) : undefined;
    if (junit)
        await external_node_fs_namespaceObject.promises.rm(junit, { force: true });
    const run = await deps.runTests(settings.testCommand, deps.signal);
    if (deps.signal?.aborted)
        return { state: before, interrupted: true };
    record.tests = { passed: run.passed, exitCode: run.exitCode, durationMs: Math.round(run.durationMs) };
    state = { ...state, testsPassed: run.passed, ...(run.passed ? {} : { testFailures: state.testFailures + 1 }) };
    const seen = await testsSeen(run, junit);
    const decision = decidePhase({
        phase: tdd.phase, description: test, changed: git && phaseBase ? await git.hasWorkSince(phaseBase) : true,
        reportedDuplicate: isDuplicateReport(result), tests: seen, targetTests: tdd.targetTests, retries: tdd.retries,
    });
    return apply(decision);
    async function apply(d) {
        switch (d.kind) {
            case 'retry': {
                logger.warn('tdd.retry', `${tag} ${d.error.type}: ${d.error.message}; the agent tries again with the failures.`, { iteration: n, type: d.error.type });
                state = setTdd(state, { retries: tdd.retries + 1, lastError: d.error });
                return { state: close(state, 'tests_failed', 'retry', d.error) };
            }
            case 'abort':
                return abort(state, d.error, tdd.retries + 1);
            case 'skip': {
                if (git && phaseBase)
                    await git.resetHard(phaseBase);
                logger.warn('tdd.skipped', `${tag} ${d.error.type}: ${d.error.message}; "${test}" is marked ${d.mark} and skipped.`, { iteration: n, type: d.error.type });
                return advance(markTest(tdd.tests, tdd.index, d.mark), 'continuing', 'skip', d.error);
            }
            case 'rollback': {
                if (git && phaseBase) {
                    await git.resetHard(phaseBase);
                    await git.commitAll(d.message, { allowEmpty: true });
                    if (notes)
                        await writeNote(notes, await git.head(), noteOf(tdd, test, 'REFACTOR', 'RED', 'PASS', { ...d.error, retry_count: tdd.retries + 1, timestamp: rfc3339(clock.now()) }));
                }
                logger.warn('tdd.rolled_back', `${tag} ${d.error.message}: the refactoring is rolled back to ${phaseBase?.slice(0, 12)}; committed "${d.message}".`, { iteration: n });
                return advance(markTest(tdd.tests, tdd.index, 'done'), 'continuing', 'rollback', d.error, git ? await git.head() : undefined);
            }
            case 'commit': {
                let testFile = tdd.testFile;
                let targetTests = tdd.targetTests;
                if (tdd.phase === 'RED') {
                    targetTests = seen.failing;
                    testFile = git && phaseBase ? pickTestFile(await git.changedFiles(phaseBase)) : '';
                }
                let commit;
                if (git) {
                    await git.commitAll(d.message, { allowEmpty: true });
                    commit = await git.head();
                    if (notes)
                        await writeNote(notes, commit, noteOf({ ...tdd, testFile }, test, tdd.phase, d.next === 'next-test' ? 'RED' : d.next, d.testResult));
                }
                logger.info('tdd.committed', `${tag} ${d.message}${commit ? ` (${commit.slice(0, 12)})` : ''}; next: ${d.next === 'next-test' ? 'the next test' : d.next}.`, { iteration: n, phase: tdd.phase, commit });
                if (d.next === 'next-test')
                    return advance(markTest(tdd.tests, tdd.index, 'done'), 'continuing', 'commit', undefined, commit);
                state = setTdd(state, { phase: d.next, retries: 0, phaseBase: undefined, lastError: undefined, targetTests, testFile, ...(commit ? { lastCommit: commit } : {}) });
                return { state: close(state, 'continuing', 'commit') };
            }
        }
    }
    /** On to the next pending test (RED of the next round), or the cycle is done. */
    async function advance(tests, outcome, decision, error, commit) {
        const next = nextPending(tests);
        state = setTdd(state, {
            tests, index: next === -1 ? tdd.index : next, phase: 'RED', round: tdd.round + 1, retries: 0, phaseBase: undefined,
            lastError: undefined, targetTests: [], testFile: '', ...(commit ? { lastCommit: commit } : {}),
        });
        if (next !== -1)
            return { state: close(state, outcome, decision, error) };
        const done = await finishCycle(deps, state, issueId);
        return { ...done, state: close(done.state, 'complete', decision, error) };
    }
}
function initialTdd(text, title) {
    const tests = parseTestList(text, title);
    return { tests, index: Math.max(0, nextPending(tests)), phase: 'RED', round: 1, retries: 0, targetTests: [], testFile: '' };
}
/**
 * Seed 003: "On restart, automatically detect last known state from Git Notes; resume from the next
 * phase after the last successful commit". A note newer than the checkpoint's last commit means a
 * run died between writing them: the note wins.
 */
async function syncWithNotes(deps, notes, base, tdd) {
    if (!notes || !base)
        return tdd;
    // Only this cycle's own commits: the base branch's history holds other issues' notes.
    const newest = await newestNote(notes, `${base}..HEAD`, { onInvalid: (commit, reason) => deps.logger.warn('tdd.note_invalid', `Ignored the git note on ${commit.slice(0, 12)}: ${reason}`) });
    // The newest note of the cycle's branch is the truth: after a crash between the commit and the
    // checkpoint, and after a person reset the branch by hand.
    if (!newest || newest.commit === tdd.lastCommit)
        return tdd;
    const { note } = newest;
    let tests = tdd.tests;
    let index = tests.findIndex((t) => t.description === note.current_test.description);
    if (index === -1) {
        tests = [...tests, { description: note.current_test.description, status: 'pending' }];
        index = tests.length - 1;
    }
    if (note.phase === 'REFACTOR' && note.next_phase === 'RED')
        tests = markTest(tests, index, 'done');
    const resumed = {
        ...tdd, tests, index: note.next_phase === 'RED' ? Math.max(0, nextPending(tests)) : index, phase: note.next_phase,
        round: note.next_phase === 'RED' && note.phase === 'REFACTOR' ? note.cycle + 1 : note.cycle, retries: 0,
        phaseBase: undefined, lastError: undefined, testFile: note.current_test.test_file, lastCommit: newest.commit,
    };
    deps.logger.info('tdd.resumed', `Resuming the red/green/refactor workflow from the git note on ${newest.commit.slice(0, 12)}: ${note.phase} done for "${note.current_test.description}", next ${note.next_phase}.`);
    return resumed;
}
/** Closes the issue unless a pull request will (as the implement workflow does). */
async function finishCycle(deps, state, issueId) {
    const tests = state.currentCycle?.tdd?.tests ?? [];
    const skipped = tests.filter((t) => t.status === 'problematic' || t.status === 'duplicate');
    const how = `${tests.length - skipped.length} of ${tests.length} test(s) done (red, green, refactor)${skipped.length ? `; skipped: ${skipped.map((t) => `"${t.description}" (${t.status})`).join(', ')}` : ''}`;
    if (deps.settings.onSuccess !== 'pull-request')
        await deps.source.close(issueId, `agent-loop: red/green/refactor finished at iteration ${state.iteration}: ${how}`);
    deps.logger.info('cycle.complete', `${issueId}: the test list is worked through: ${how}.`, { issueIds: [issueId], skipped: skipped.length });
    return {
        state: { ...state, consecutiveEscalations: 0, issuesClosed: [...state.issuesClosed.filter((id) => id !== issueId), issueId], completedIterations: [...state.completedIterations, state.iteration] },
        cycleDone: true,
    };
}
async function testsSeen(run, junit) {
    const xml = junit ? await external_node_fs_namespaceObject.promises.readFile(junit, 'utf8').catch(() => undefined) : undefined;
    if (xml !== undefined) {
        const report = parseJUnitXml(xml);
        const failing = report.failed.map((f) => (f.classname && !f.name.startsWith(f.classname) ? `${f.classname} › ${f.name}` : f.name));
        // A run that failed with no failing testcase in the report: it did not compile, or nothing ran
        // (jest-junit leaves a suite that fails to compile out of the report).
        return { passed: run.passed, failing, compileError: !run.passed && report.failed.length === 0, summary: report.failed.length > 0 ? summariseFailures(report) : run.tail.slice(-4000) };
    }
    const failures = run.passed ? [] : failuresFromOutput(run.tail);
    return {
        passed: run.passed, failing: failures.map((f) => f.name), compileError: !run.passed && failures.length === 0,
        summary: failures.length > 0 ? `${failures.length} failing test(s):\n${failures.slice(0, 10).map((f) => `- ${f.name}: ${f.message.split('\n')[0]}`).join('\n')}\n\n${run.tail.slice(-2000)}` : run.tail.slice(-4000),
    };
}
function isDuplicateReport(result) {
    const value = result.report?.fields.duplicate_test;
    return value === true || value === 'true';
}
/** The test file among the files RED changed: a path that looks like a test, else the first. */
function pickTestFile(files) {
    return files.find((f) => /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.go$/i.test(f)) ?? files[0] ?? '';
}
function noteOf(tdd, test, phase, next, result, error) {
    return {
        phase, next_phase: next, cycle: tdd.round, current_test: { description: test, test_file: tdd.testFile }, test_result: result,
        ...(error ? { error: { ...error, type: error.type } } : {}),
    };
}

;// CONCATENATED MODULE: ./src/loop/result.ts
function buildResult(input) {
    const { state } = input;
    return {
        status: input.status,
        haltReason: state.halt?.reason ?? null,
        error: state.halt?.message ?? null,
        iterations: state.iteration,
        maxIterations: state.maxIterations,
        failedIterations: state.failedIterations,
        successfulIterations: state.successfulIterations,
        testFailures: state.testFailures,
        testsPassed: state.testsPassed,
        issuesClosed: state.issuesClosed,
        issuesEscalated: state.issuesEscalated,
        pullRequests: state.pullRequests,
        completedIterations: state.completedIterations,
        checkpointId: input.checkpointId,
        costUsd: state.costUsd,
        tokens: state.tokens,
        sliceIterations: state.iteration - input.sliceStartIteration,
        history: state.history.filter((r) => r.n > input.sliceStartIteration),
        durationMs: Math.round(input.durationMs),
        interrupted: input.interrupted,
        tddError: state.tddError ?? null,
        diagnostic: input.diagnostic ?? null,
    };
}
function exitCodeFor(result) {
    return result.status === 'halted' ? 1 : 0;
}
/** The closing line in text mode. */
function summaryLine(r) {
    const head = r.status === 'halted' ? `HALTED (${r.haltReason}): ${r.error}` : r.status === 'complete' ? 'COMPLETE' : `CONTINUING${r.interrupted ? ' (interrupted)' : ''}: work remains, run again to resume`;
    return [
        head,
        `  iterations ${r.iterations}/${r.maxIterations} (this slice ${r.sliceIterations}): ${r.successfulIterations} agent ok, ${r.failedIterations} agent failed, ${r.testFailures} test failures`,
        `  tests passed: ${r.testsPassed === null ? 'not run' : r.testsPassed}; closed: ${r.issuesClosed.join(', ') || 'none'}${r.issuesEscalated.length ? `; escalated: ${r.issuesEscalated.join(', ')}` : ''}`,
        ...(r.pullRequests.length ? [`  pull requests: ${r.pullRequests.map((p) => `#${p.number} (${p.issueIds.join(', ')})`).join(', ')}`] : []),
        ...(r.costUsd > 0 || r.tokens.input + r.tokens.output > 0 ? [`  agent spend: $${r.costUsd.toFixed(4)}${r.tokens.input + r.tokens.output > 0 ? `, ${r.tokens.input} tokens in, ${r.tokens.output} out` : ''}`] : []),
        `  checkpoint ${r.checkpointId}`,
    ].join('\n');
}

;// CONCATENATED MODULE: ./src/loop/slice.ts
/**
 * One slice of the implementation loop (seed 001 REQ_019, seed 000 REQ_021, seed 002): resume the
 * newest checkpoint, work cycles (iteration.ts) until the work is done, the run must halt, or the
 * slice's bounds are reached; escalate cycles that cannot go on and detect failure loops with
 * counters kept in the checkpoint; write the checkpoint after every iteration.
 */














/** The run cannot start as asked (a --resume id that cannot be used, a cycle branch as base): exit 2. */
class StartError extends Error {
}
const IN_PROGRESS = 'beads_integration-complete';
const PHASE_FOR = {
    continuing: IN_PROGRESS,
    complete: 'implementation-complete',
    halted: 'implementation-failed',
};
async function runSlice(deps) {
    const { settings, logger, clock, store, source, git } = deps;
    const startedAt = clock.now().getTime();
    const deadline = settings.sliceMinutes !== undefined ? startedAt + settings.sliceMinutes * 60_000 : undefined;
    const opened = await openCheckpoint(deps);
    const checkpointId = opened.id;
    if (opened.sourceState !== undefined)
        source.importState?.(opened.sourceState);
    let state = { ...opened.state, slices: opened.state.slices + 1, maxIterations: settings.maxIterations, halt: undefined };
    const sliceStartIteration = state.iteration;
    const errors = [];
    const save = async (status) => {
        const sourceState = source.exportState?.();
        await store.write({ id: checkpointId, phase: PHASE_FOR[status], state: { loop: state, ...(sourceState !== undefined ? { source: sourceState } : {}) }, ...(errors.length ? { errors } : {}) });
    };
    /** Labels and notes the issues in the source; on a git base branch, commits that bookkeeping. */
    const labelEscalated = async (ids, note) => {
        for (const id of ids) {
            try {
                await source.markEscalated(id, note);
            }
            catch (error) {
                logger.warn('source.warning', `Could not label ${id} as escalated in ${source.description}: ${error.message}`);
            }
        }
        if (git && (await git.currentRef()) === state.baseBranch)
            await git.commitAll(`agent-loop: ${ids.join(' ')} escalated`);
    };
    if (git) {
        await git.exclude(external_node_path_default().relative(git.topLevel, deps.stateDir) || '.agent-loop');
        await git.exclude(TEMP_FILE_PATTERN);
        if (!state.baseBranch) {
            const current = await git.currentRef();
            if (current.startsWith('agent-loop/')) {
                throw new StartError(`the checked-out branch ${current} is a cycle branch of an earlier run, not a base branch. Check out the branch the work should land on (e.g. git checkout main), or resume that run instead of --fresh.`);
            }
            state.baseBranch = current;
        }
        // A halt left an escalated cycle's branch checked out for inspection: park its work now, and
        // record the escalation on the base branch, where later runs read the issues.
        if (state.parkedBranch && state.baseBranch) {
            if ((await git.currentRef()) === state.parkedBranch) {
                await git.commitAll(`wip: ${state.parkedBranch} (escalated; parked by the next run)`);
                await git.checkout(state.baseBranch);
                const last = state.escalations.at(-1);
                if (last)
                    await labelEscalated(last.issueIds, last.note);
                logger.info('git.parked', `Committed the work left on ${state.parkedBranch} as wip: and returned to ${state.baseBranch}.`);
            }
            state = { ...state, parkedBranch: undefined };
        }
    }
    await save('continuing');
    logger.info('run.start', `${opened.resumed ? `Resuming checkpoint ${checkpointId} at iteration ${state.iteration + 1}` : `Starting run ${checkpointId}`} (max ${settings.maxIterations} iterations, agent ${deps.agent.displayName}, tests: ${settings.testCommand})`, {
        checkpointId, resumed: opened.resumed, iteration: state.iteration, maxIterations: settings.maxIterations,
    });
    const finish = async (status, halt, interrupted = false) => {
        let diagnostic = null;
        if (halt) {
            state = { ...state, halt: { reason: halt.reason, message: halt.message } };
            errors.push(halt.message);
            const d = buildDiagnostic({ reason: halt.reason, message: halt.message, state, checkpointId, maxConsecutiveEscalations: settings.maxConsecutiveEscalations, advice: halt.advice });
            diagnostic = (deps.redact ?? ((t) => t))(renderMarkdown(d));
            await writeFileAtomic(external_node_path_default().join(deps.stateDir, 'halt.md'), diagnostic);
            logger.error('run.halted', `HALT (${halt.reason}): ${halt.message}. Nothing was reset: checkpoint ${checkpointId}, branch and working tree are left for inspection; the diagnostic is in ${external_node_path_default().join(deps.stateDir, 'halt.md')}.`, { haltReason: halt.reason, diagnostic });
            logger.info('halt.diagnostic', diagnostic.trimEnd());
            await deps.notify?.(d);
        }
        await save(status);
        // A cycle still in flight at the slice's end: on a runner that is thrown away its branch is
        // pushed (work as wip:), and the next slice fetches it.
        const open = state.currentCycle?.branch;
        if (deps.publisher && git && open && status === 'continuing' && (await git.currentRef()) === open) {
            await git.commitAll(`wip: ${state.currentCycle?.issueIds.join(' ')} (slice ended at iteration ${state.iteration})`.slice(0, 120));
            await keepBranch(deps, open);
        }
        return buildResult({ status, state, checkpointId, sliceStartIteration, durationMs: clock.now().getTime() - startedAt, interrupted, diagnostic });
    };
    /** Records an escalated cycle in the checkpoint and the source; a failure loop halts. */
    const escalate = async (unmasked, bounceLoop) => {
        // The reason may quote the agent's stderr; it goes into the issue's note and a commit message.
        const reason = (deps.redact ?? ((t) => t))(unmasked);
        const cycle = state.currentCycle;
        const at = rfc3339(clock.now());
        const note = `agent-loop escalated this issue at iteration ${state.iteration} (${at}): ${reason}. Remove the ${ESCALATED_LABEL} label to let agent-loop try it again.`;
        const record = {
            issueIds: cycle.issueIds, titles: cycle.titles, iteration: state.iteration, steps: [...new Set(cycle.progress.trail)], reason, at, note,
            ...(cycle.lastFailure ? { lastFailure: { ...cycle.lastFailure, tail: cycle.lastFailure.tail.slice(-OUTPUT_CHARS) } } : {}),
        };
        state = {
            ...state,
            issuesEscalated: [...state.issuesEscalated, ...cycle.issueIds.filter((id) => !state.issuesEscalated.includes(id))],
            consecutiveEscalations: state.consecutiveEscalations + 1,
            totalEscalations: state.totalEscalations + 1,
            escalations: [...state.escalations, record].slice(-100),
        };
        logger.error('cycle.escalated', `Escalated ${describeTargets(cycle)}: ${reason} (${state.consecutiveEscalations} escalation(s) in a row, limit ${settings.maxConsecutiveEscalations}).`, {
            issueIds: cycle.issueIds, reason, steps: record.steps, consecutiveEscalations: state.consecutiveEscalations, bounceLoop,
        });
        const refs = (ids) => ids.map(issueRef).join(', ');
        let halt;
        if (bounceLoop) {
            halt = { reason: 'bounce_loop', message: `BOUNCE LOOP DETECTED: ${cycle.progress.bounces} step-back transitions in cycle for issue ${refs(cycle.issueIds)} (${cycle.progress.trail.join(', ')})` };
        }
        else if (state.consecutiveEscalations >= settings.maxConsecutiveEscalations) {
            const recent = state.escalations.slice(-state.consecutiveEscalations).flatMap((e) => e.issueIds);
            halt = { reason: 'failure_loop', message: `FAILURE LOOP DETECTED: ${state.consecutiveEscalations} consecutive escalations (issues ${refs(recent)}); last: ${reason}` };
        }
        if (halt && !deps.publisher) {
            // Nothing moves on a halt: the label goes into the working tree as it is, and the cycle's
            // branch and edits stay for inspection (the next run parks them).
            await labelEscalated(cycle.issueIds, note);
            state = { ...state, currentCycle: undefined, parkedBranch: cycle.branch };
            return halt;
        }
        if (git && cycle.branch && state.baseBranch) {
            const committed = await git.commitAll(`wip: ${cycle.issueIds.join(' ')} escalated: ${reason}`.slice(0, 120));
            // Where the work is published, the machine is thrown away: the wip: branch is pushed to stay.
            if (deps.publisher && (committed || (await git.branchExists(cycle.branch))))
                await keepBranch(deps, cycle.branch);
            await git.checkout(state.baseBranch);
            logger.info('git.wip', `${committed ? `Committed the cycle's work to ${cycle.branch} as wip:` : `${cycle.branch} had no changes`}; back on ${state.baseBranch}${halt ? '' : ' for the next cycle'}.`);
        }
        await labelEscalated(cycle.issueIds, note);
        state = { ...state, currentCycle: undefined };
        return halt;
    };
    // A rate-limit window carried over from the previous slice.
    if (state.rateLimitedUntil) {
        const wait = Date.parse(state.rateLimitedUntil) - clock.now().getTime();
        if (wait > 0 && deadline !== undefined && clock.now().getTime() + wait > deadline) {
            logger.info('rate.limited', `Rate limited until ${state.rateLimitedUntil}: nothing to do in this slice; the next run continues.`, { rateLimitedUntil: state.rateLimitedUntil });
            return finish('continuing');
        }
        if (wait > 0) {
            logger.info('rate.limited', `Rate limited until ${state.rateLimitedUntil}: waiting ${seconds(wait)}.`, { rateLimitedUntil: state.rateLimitedUntil });
            await clock.sleep(wait, deps.signal);
        }
        state = { ...state, rateLimitedUntil: undefined };
    }
    let onCycleBranch = false;
    for (;;) {
        if (deps.signal?.aborted)
            return finish('continuing', undefined, true);
        // 1. What to work on: the current cycle, or the next ready issues (escalated ones skipped).
        let next;
        if (!state.currentCycle) {
            // A red/green/refactor cycle works one issue's test list.
            const selection = await selectTargets(source, state, settings.batch && settings.workflow !== 'tdd', sliceStartIteration);
            next = selection.targets;
            if (next.length === 0) {
                if (selection.escalated.length > 0) {
                    return finish('halted', { reason: 'all_escalated', message: `ALL ISSUES ESCALATED: only escalated issues remain (${selection.escalated.map(issueRef).join(', ')})` });
                }
                logger.info('run.complete', `No ready issues left: the work is done (${state.issuesClosed.length} closed in this run).`);
                return finish('complete');
            }
        }
        // 2. Bounds: the run's, then the slice's.
        if (state.iteration >= settings.maxIterations) {
            return finish('halted', { reason: 'max_iterations', message: `Max iterations (${settings.maxIterations}) reached` });
        }
        if (settings.maxCostUsd !== undefined && state.costUsd >= settings.maxCostUsd) {
            return finish('halted', { reason: 'budget', message: `Budget reached: $${state.costUsd.toFixed(4)} spent of the $${settings.maxCostUsd} cap (--max-cost-usd)` });
        }
        const sliceDone = state.iteration - sliceStartIteration;
        if (settings.sliceIterations !== undefined && sliceDone >= settings.sliceIterations) {
            logger.info('slice.end', `Slice bound reached (${sliceDone} iterations): checkpoint ${checkpointId} continues next run.`);
            return finish('continuing');
        }
        if (deadline !== undefined && clock.now().getTime() >= deadline) {
            logger.info('slice.end', `Slice time bound reached (${settings.sliceMinutes} min): checkpoint ${checkpointId} continues next run.`);
            return finish('continuing');
        }
        // 3. Start a cycle when none is in flight.
        if (!state.currentCycle && next) {
            const cycle = {
                issueIds: next.map((i) => i.id), titles: next.map((i) => i.title),
                startedAtIteration: state.iteration + 1, iterations: 0, sameWorkRemainingCount: 0,
                progress: initialProgress(), timeoutRetries: 0, rateLimitAttempts: 0,
            };
            if (git && state.baseBranch) {
                cycle.branch = cycleBranch(cycle.issueIds);
                // The branch of an earlier cycle of these issues (escalated: its work kept as wip:; or its
                // pull request's, pushed by an earlier run) is brought up to date with the base first, so
                // that this cycle merges back cleanly.
                if (deps.publisher && !(await git.branchExists(cycle.branch)) && (await deps.publisher.fetchBranch(cycle.branch))) {
                    logger.info('git.fetched', `Continuing on ${cycle.branch} as an earlier run pushed it.`);
                }
                const earlier = await git.branchExists(cycle.branch);
                await git.switchToBranch(cycle.branch, state.baseBranch);
                if (earlier)
                    await git.merge(state.baseBranch, `Merge ${state.baseBranch} into ${cycle.branch}: a new cycle on an earlier cycle's branch`);
            }
            state = { ...state, currentCycle: cycle };
            logger.info('cycle.start', `Cycle for ${describeTargets(cycle)}${cycle.branch ? ` on branch ${cycle.branch}` : ''}`, { issueIds: cycle.issueIds, branch: cycle.branch });
        }
        else if (git && state.currentCycle?.branch && !onCycleBranch) {
            // A resumed cycle: make sure its branch is checked out (once per slice, not per iteration),
            // the one an earlier run pushed when this checkout does not have it.
            const branch = state.currentCycle.branch;
            if ((await git.currentRef()) !== branch) {
                if (deps.publisher && !(await git.branchExists(branch)) && (await deps.publisher.fetchBranch(branch))) {
                    logger.info('git.fetched', `Continuing on ${branch} as the previous slice pushed it.`);
                }
                await git.switchToBranch(branch, state.baseBranch ?? 'HEAD');
            }
        }
        onCycleBranch = true;
        // 4. One iteration, then what it means for the cycle and the run.
        const cycle = state.currentCycle;
        const outcome = settings.workflow === 'tdd' ? await runTddIteration(deps, state) : await runIteration(deps, state);
        if (outcome.interrupted)
            return finish('continuing', undefined, true);
        state = outcome.state;
        if (outcome.violation)
            await appendError(deps, outcome.violation);
        if (outcome.halt)
            return finish('halted', outcome.halt);
        if (outcome.cycleDone) {
            const published = await finishCycleInGit(deps, state, cycle);
            state = { ...state, currentCycle: undefined, ...(published ? { pullRequests: [...state.pullRequests, published].slice(-100) } : {}) };
        }
        if (outcome.escalate) {
            const halt = await escalate(outcome.escalate.reason, outcome.escalate.bounceLoop);
            if (halt)
                return finish('halted', halt);
        }
        if (outcome.waitMs !== undefined) {
            const until = clock.now().getTime() + outcome.waitMs;
            if (deadline !== undefined && until > deadline) {
                // Whole seconds, rounded up: the next run must not start inside the window.
                state = { ...state, rateLimitedUntil: rfc3339(new Date(Math.ceil(until / 1000) * 1000)) };
                logger.info('rate.limited', `Rate limited until ${state.rateLimitedUntil}, past this slice's end: the next run waits or resumes then.`, { rateLimitedUntil: state.rateLimitedUntil });
                return finish('continuing');
            }
            logger.info('rate.limited', `Rate limited: waiting ${seconds(outcome.waitMs)} before the next attempt.`, { waitMs: outcome.waitMs });
            await save('continuing');
            await clock.sleep(outcome.waitMs, deps.signal);
        }
        await save('continuing');
    }
}
async function finishCycleInGit(deps, state, cycle) {
    const { git, settings, logger } = deps;
    if (!git || !cycle.branch || !state.baseBranch)
        return undefined;
    const subject = `agent-loop: ${cycle.issueIds.join(' ')} ${cycle.titles.join('; ')}`.slice(0, 120);
    const committed = await git.commitAll(subject);
    if (settings.onSuccess === 'pull-request' && deps.publisher) {
        const work = { issueIds: cycle.issueIds, titles: cycle.titles, branch: cycle.branch, base: state.baseBranch, iteration: state.iteration };
        const pr = await deps.publisher.publish(work);
        await git.checkout(state.baseBranch);
        logger.info('git.pull_request', `${pr.reused ? 'Updated' : 'Opened'} pull request #${pr.number} (${pr.url}) from ${cycle.branch} for ${cycle.issueIds.join(', ')}${committed ? '' : ' (the agent changed no files in this cycle)'}.`, { number: pr.number, url: pr.url, reused: pr.reused, branch: cycle.branch });
        return { issueIds: cycle.issueIds, number: pr.number, url: pr.url, reused: pr.reused, iteration: state.iteration };
    }
    await git.checkout(state.baseBranch);
    if (settings.onSuccess === 'merge') {
        if (committed || (await git.branchExists(cycle.branch))) {
            await git.merge(cycle.branch, `Merge ${cycle.branch}: ${subject}`);
            await git.deleteBranch(cycle.branch);
        }
        logger.info('git.merged', `Merged ${cycle.branch} into ${state.baseBranch}${committed ? '' : ' (the agent changed no files)'}.`);
    }
    else {
        logger.info('git.branch', `Left the work on branch ${cycle.branch}; ${state.baseBranch} is checked out again.`);
    }
    return undefined;
}
/** Pushes an escalated cycle's branch; a failure is a warning (the escalation itself stands). */
async function keepBranch(deps, branch) {
    try {
        await deps.publisher?.keep(branch);
        deps.logger.info('git.kept', `Pushed ${branch} (its work as wip:) so that a later attempt continues from it.`);
    }
    catch (error) {
        deps.logger.warn('git.keep_failed', `Could not push ${branch}: ${error.message}. Its work is only in this checkout.`);
    }
}
/** The next targets, and the ready issues skipped because they were escalated (here or in an earlier run). */
async function selectTargets(source, state, batch, sliceStartIteration) {
    // Issues closed in this run stay done even when the base branch's issue file still lists them
    // open (--on-success branch leaves the closing commit on the cycle's branch).
    const ready = (await source.ready()).filter((i) => !state.issuesClosed.includes(i.id));
    // Across slices the label decides (removing it makes the issue eligible again); within this
    // slice the escalations themselves, in case a label could not be written.
    const inThisSlice = new Set(state.escalations.filter((e) => e.iteration > sliceStartIteration).flatMap((e) => e.issueIds));
    const isEscalated = (i) => inThisSlice.has(i.id) || i.labels.includes(ESCALATED_LABEL);
    const eligible = ready.filter((i) => !isEscalated(i));
    return { targets: batch ? eligible : eligible.slice(0, 1), escalated: ready.filter(isEscalated).map((i) => i.id) };
}
async function openCheckpoint(deps) {
    const { settings, store, logger } = deps;
    const fresh = () => ({ id: newCheckpointId(), state: initialLoopState(settings.maxIterations), resumed: false });
    if (settings.fresh)
        return fresh();
    if (settings.resume) {
        let cp;
        try {
            cp = await store.load(settings.resume);
        }
        catch (error) {
            throw new StartError(`--resume ${settings.resume}: ${error.message}`);
        }
        const loop = parseLoopState(cp.state);
        if (typeof loop === 'string')
            throw new StartError(`--resume ${settings.resume}: ${loop}. Start over with --fresh.`);
        return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source };
    }
    const listing = await store.list();
    for (const bad of listing.invalid)
        logger.warn('checkpoint.invalid', `Skipped checkpoint ${bad.path}: ${bad.reason}`, { path: bad.path, reason: bad.reason });
    const candidates = [...listing.checkpoints];
    for (;;) {
        const cp = pickResumable(candidates);
        if (!cp)
            return fresh();
        const loop = parseLoopState(cp.state);
        if (typeof loop !== 'string')
            return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source };
        logger.warn('checkpoint.invalid', `Skipped checkpoint ${external_node_path_default().join(store.dir, `${cp.id}.json`)}: ${loop}`);
        candidates.splice(candidates.indexOf(cp), 1);
    }
}
async function appendError(deps, entry) {
    await external_node_fs_namespaceObject.promises.mkdir(deps.stateDir, { recursive: true });
    await external_node_fs_namespaceObject.promises.appendFile(external_node_path_default().join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(entry)}\n`);
}

;// CONCATENATED MODULE: ./src/loop/testGate.ts
/** The test gate: which command proves the work is done, and running it. */


/** The test command given, or detected from the repository; undefined when there is none. Pure apart from reading files. */
function detectTestCommand(cwd) {
    const pkg = external_node_path_default().join(cwd, 'package.json');
    if ((0,external_node_fs_namespaceObject.existsSync)(pkg)) {
        try {
            const scripts = JSON.parse((0,external_node_fs_namespaceObject.readFileSync)(pkg, 'utf8')).scripts;
            if (scripts?.test && !/no test specified/.test(scripts.test))
                return 'npm test';
        }
        catch {
            // An unreadable package.json is not a test configuration.
        }
    }
    const pytestMarkers = ['pytest.ini', 'conftest.py', 'tox.ini'];
    if (pytestMarkers.some((f) => (0,external_node_fs_namespaceObject.existsSync)(external_node_path_default().join(cwd, f))) || (0,external_node_fs_namespaceObject.existsSync)(external_node_path_default().join(cwd, 'tests')))
        return 'pytest';
    for (const f of ['pyproject.toml', 'setup.cfg']) {
        const file = external_node_path_default().join(cwd, f);
        if ((0,external_node_fs_namespaceObject.existsSync)(file) && /\[(tool\.pytest|tool:pytest)/.test((0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8')))
            return 'pytest';
    }
    for (const f of ['Makefile', 'makefile', 'GNUmakefile']) {
        const file = external_node_path_default().join(cwd, f);
        if ((0,external_node_fs_namespaceObject.existsSync)(file) && /^test\s*:/m.test((0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8')))
            return 'make test';
    }
    return undefined;
}

/** Runs the test command through the shell; exit code 0 is a pass. Output streams to `onLine`, a bounded tail is kept. */
async function runTestCommand(command, opts) {
    const r = await runProcess({ command, shell: true, cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs, onLine: opts.onLine, signal: opts.signal, tailBytes: 16 * 1024 });
    const note = r.timedOut ? `\n(test command timed out after ${opts.timeoutMs / 60000} min)` : r.spawnError ? `\n(${r.spawnError})` : '';
    return { passed: r.exitCode === 0 && !r.timedOut, exitCode: r.exitCode, durationMs: r.durationMs, tail: r.tail + note };
}

;// CONCATENATED MODULE: ./src/report/logger.ts

function createLogger({ json, write, clock, redact, before }) {
    const emit = (event, level, message, fields) => {
        const prefix = before?.(event, level, message);
        if (prefix)
            write(redact(prefix));
        const time = rfc3339(clock.now());
        if (json) {
            write(redact(JSON.stringify({ time, level, event, message, ...fields })) + '\n');
        }
        else {
            const tag = level === 'info' || level === 'debug' ? '' : `${level.toUpperCase()} `;
            write(redact(`${time} ${tag}${message}`) + '\n');
        }
    };
    return {
        event: emit,
        info: (e, m, f) => emit(e, 'info', m, f),
        warn: (e, m, f) => emit(e, 'warn', m, f),
        error: (e, m, f) => emit(e, 'error', m, f),
        output(source, rawLine, stream, cut) {
            // A piece of an overlong line: a secret may straddle the cut, so its edges are masked too.
            const line = cut && 'piece' in redact ? redact.piece(rawLine, cut) : rawLine;
            if (json)
                write(redact(JSON.stringify({ event: `${source}.output`, stream, line, ...(cut ? { cut } : {}) })) + '\n');
            else
                write(redact(`  │ ${line}`) + '\n');
        },
        result(result, textLine) {
            if (json)
                write(redact(JSON.stringify(result)) + '\n');
            else
                write(redact(textLine) + '\n');
        },
    };
}

;// CONCATENATED MODULE: ./src/report/redact.ts
const MASK = '***';
/**
 * Shorter known values are not masked. Below 6 characters a value is no real credential (every
 * token this tool is given is 40+ characters; a Discord webhook token is 68) and it occurs in
 * ordinary output all the time: masking a 1-character value would turn every "a" of every line
 * into ***, ruining the logs and, by where the masks fall, revealing the value anyway. 6 also
 * keeps every replacement (`***`) shorter than what it replaces, which is what makes "repeat
 * until nothing matches" end.
 */
const MIN_SECRET_LENGTH = 6;
// Token shapes. The lookbehinds after `sk-` / `xox?-` keep them off the end of words ("task-ant-…").
const SHAPES = [
    'gh[pousr]_[A-Za-z0-9]{36,}',
    'github_pat_[A-Za-z0-9_]{22,}',
    'sk-(?<![A-Za-z0-9]sk-)(?:ant-[A-Za-z0-9_-]{20,}|(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})',
    'xox[abprs]-(?<![A-Za-z0-9]xox[abprs]-)(?=[A-Za-z-]*[0-9])[A-Za-z0-9-]{10,}',
    // RFC 6750 b64token; a digit is required so prose ("Bearer authentication") is left alone.
    // The space may be a tab, or `\t` in JSON.
    '(?:Bearer|bearer|BEARER)(?:[ \\t]|\\\\t)+(?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{8,}=*',
];
/** The part of a masked shape that stays readable. */
const SHAPE_PREFIX = /^(?:gh[pousr]_|github_pat_|sk-(?:ant-|proj-|svcacct-|admin-|None-)?|xox[abprs]-|(?:Bearer|bearer|BEARER)(?:[ \t]|\\t)+)/;
/** At a cut end: a shape prefix and whatever of its token made it into this piece. */
const SHAPE_AT_CUT_END = /(?:gh[pousr]_|github_pat_|(?<![A-Za-z0-9])sk-(?:ant-|proj-|svcacct-|admin-|None-)?|(?<![A-Za-z0-9])xox[abprs]-|(?:Bearer|bearer|BEARER)(?:[ \t]|\\t)+)[A-Za-z0-9_.~+/=-]*$/;
/** At a cut start: the rest of a token whose prefix was in the previous piece. */
const TOKEN_AT_CUT_START = /^[A-Za-z0-9_-]{20,}/;
const FRAGMENT_THRESHOLD_CAP = 8;
const BACKSLASH = 0x5c;
const hex4 = (code, upper) => {
    const h = code.toString(16).padStart(4, '0');
    return upper ? h.toUpperCase() : h;
};
/** JSON.stringify of a string, without the quotes. */
const redact_json = (s) => JSON.stringify(s).slice(1, -1);
const slashEscaped = (s) => s.replace(/\//g, '\\/');
/** Python's json.dumps (ensure_ascii) and PHP's json_encode: everything beyond ASCII as \uXXXX. */
const asciiOnly = (s, upper) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${hex4(c.charCodeAt(0), upper)}`);
/** Go's json.Marshal: <, > and & as \u003c, \u003e, \u0026. */
const htmlSafe = (s) => s.replace(/[<>&]/g, (c) => `\\u${hex4(c.charCodeAt(0), false)}`);
function urlForms(s) {
    try {
        const component = encodeURIComponent(s);
        return [
            component,
            component.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
            component.replace(/%20/g, '+'),
            encodeURI(s),
        ];
    }
    catch {
        return []; // a lone surrogate has no URL encoding
    }
}
/** The forms a secret value can take in output, the value itself first. */
function secretForms(secret) {
    const firstLevel = [
        secret,
        redact_json(secret),
        slashEscaped(redact_json(secret)),
        asciiOnly(redact_json(secret), false),
        asciiOnly(redact_json(secret), true),
        asciiOnly(slashEscaped(redact_json(secret)), false),
        htmlSafe(redact_json(secret)),
        ...urlForms(secret),
    ];
    const forms = new Set();
    for (const form of firstLevel) {
        // Nested: a JSON string inside the agent's JSON, then the logger's JSON.stringify.
        const once = redact_json(form);
        const twice = redact_json(once);
        forms.add(form).add(once).add(twice).add(redact_json(twice));
    }
    return [...forms];
}
const escapeRegExp = (s) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
/**
 * V8 stops optimising a regular expression whose source is over 20 KB (kRegExpTooLargeToOptimize):
 * with a hundred secrets, one alternation of all their forms was 20 times slower. The forms are
 * split into alternations below this size instead; a handful of secrets needs only one.
 */
const MAX_PATTERN_SOURCE = 16_000;
function alternations(sources) {
    const groups = [];
    let size = Infinity;
    for (const source of sources) {
        if (size + source.length + 1 > MAX_PATTERN_SOURCE) {
            groups.push([]);
            size = 0;
        }
        groups[groups.length - 1]?.push(source);
        size += source.length + 1;
    }
    return groups.map((group) => new RegExp(group.join('|'), 'g'));
}
function backslashesBefore(text, index) {
    let n = 0;
    while (index - n - 1 >= 0 && text.charCodeAt(index - n - 1) === BACKSLASH)
        n++;
    return n;
}
/**
 * The escape sequence (`\n`, `\"`, `\\`, `\u00e9`, …) that `index` falls strictly inside, as
 * [start, end), if any. A replacement is widened to whole escapes so that, in JSON text, it never
 * leaves half an escape behind (`\***`, `\u00***`, or a `\` now escaping the quote after it).
 */
function escapeAround(text, index) {
    for (let p = index - 1; p >= 0 && p >= index - 5; p--) {
        if (text.charCodeAt(p) !== BACKSLASH || backslashesBefore(text, p) % 2 === 1)
            continue;
        const length = text[p + 1] === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(p + 2, p + 6)) ? 6 : 2;
        if (p + length > index)
            return [p, p + length];
    }
    return undefined;
}
function fragmentThreshold(length) {
    return Math.min(Math.ceil(length / 2), FRAGMENT_THRESHOLD_CAP);
}
function createRedactor(secrets) {
    const values = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
    const forms = new Set(values.flatMap(secretForms));
    // Longest first: at one position the longest form wins.
    const formList = [...forms].sort((a, b) => b.length - a.length);
    // Known values before shapes, so a value that has a shape is masked whole.
    const patterns = alternations([...formList.map(escapeRegExp), ...SHAPES]);
    /** One pass: every match replaced, widened to whole escapes. Returns `text` itself when nothing matched. */
    const passWith = (pattern, text) => {
        pattern.lastIndex = 0;
        let out = '';
        let last = 0;
        for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
            const match = m[0];
            let start = m.index;
            let masked = forms.has(match) ? MASK : `${SHAPE_PREFIX.exec(match)?.[0] ?? ''}${MASK}`;
            const before = escapeAround(text, start);
            if (before)
                [start, masked] = [before[0], MASK];
            const end = escapeAround(text, m.index + match.length)?.[1] ?? m.index + match.length;
            out += text.slice(last, start) + masked;
            last = end;
            pattern.lastIndex = end;
        }
        return last === 0 ? text : out + text.slice(last);
    };
    const pass = (text) => patterns.reduce((out, pattern) => passWith(pattern, out), text);
    const redact = (text) => {
        let out = String(text);
        // Every replacement is shorter than what it replaces, so this ends; usually after one pass with no match.
        for (;;) {
            const next = pass(out);
            if (next === out)
                return out;
            out = next;
        }
    };
    const maskCutEnd = (text) => {
        let best = 0;
        const last = text.charCodeAt(text.length - 1);
        for (const form of formList) {
            for (let n = Math.min(form.length - 1, text.length); n >= Math.max(fragmentThreshold(form.length), best + 1); n--) {
                if (form.charCodeAt(n - 1) === last && text.endsWith(form.slice(0, n)) && /[^*]/.test(form.slice(0, n))) {
                    best = n;
                    break;
                }
            }
        }
        if (best > 0)
            return text.slice(0, escapeAround(text, text.length - best)?.[0] ?? text.length - best) + MASK;
        const shape = SHAPE_AT_CUT_END.exec(text);
        if (shape)
            return text.slice(0, shape.index) + (SHAPE_PREFIX.exec(shape[0])?.[0] ?? '') + MASK;
        return text;
    };
    const maskCutStart = (text) => {
        let best = 0;
        const first = text.charCodeAt(0);
        for (const form of formList) {
            for (let n = Math.min(form.length - 1, text.length); n >= Math.max(fragmentThreshold(form.length), best + 1); n--) {
                const from = form.length - n;
                if (form.charCodeAt(from) === first && text.startsWith(form.slice(from)) && /[^*]/.test(form.slice(from))) {
                    best = n;
                    break;
                }
            }
        }
        if (best > 0)
            return MASK + text.slice(escapeAround(text, best)?.[1] ?? best);
        const token = TOKEN_AT_CUT_START.exec(text);
        if (token)
            return MASK + text.slice(token[0].length);
        return text;
    };
    const piece = (text, cut) => {
        let out = redact(text);
        // Masking an edge may expose another match (only with secrets containing `*`): a few rounds.
        for (let round = 0; round < 8; round++) {
            let next = out;
            if (cut.after)
                next = maskCutEnd(next);
            if (cut.before)
                next = maskCutStart(next);
            if (next === out)
                return out;
            out = redact(next);
        }
        return out;
    };
    return Object.assign(redact, { piece });
}

;// CONCATENATED MODULE: ./src/report/discord.ts
/**
 * Posting a halt diagnostic to a Discord webhook.
 *
 * `buildDiscordPayload` turns a generic `HaltMessage` into the JSON body of Discord's
 * "Execute Webhook" call (POST /webhooks/{id}/{token}): one rich embed that always fits Discord's
 * documented limits, truncating visibly ("…") instead of failing, and `allowed_mentions` that
 * parses nothing, so issue text can never ping @everyone, @here, a role or a user.
 *
 * `postToDiscord` sends it with `?wait=true`, retries 429 (after `retry_after`) and 5xx/network
 * errors (exponential backoff) within a 30 s budget of waiting, and reports every other outcome
 * as a warning: it never throws and never changes the run's outcome. The webhook URL is a secret
 * (its token lets anyone post): it never appears in a warning or in the returned error, even if
 * the redactor does not know it.
 *
 * Limits, from discord/discord-api-docs (docs/resources/message.mdx "Embed Limits",
 * docs/resources/webhook.mdx "Execute Webhook"): content 2000 characters; up to 10 embeds; embed
 * title 256, description 4096, up to 25 fields, field name 256, field value 1024, footer text 2048,
 * author name 256; and the sum of title, description, field names and values, footer text and
 * author names across all embeds of a message at most 6000. Discord trims leading and trailing
 * whitespace before measuring; this module measures untrimmed UTF-16 length (never less than
 * what Discord counts), so it stays within the limits either way.
 */
const DISCORD_LIMITS = {
    content: 2000,
    embeds: 10,
    title: 256,
    description: 4096,
    fields: 25,
    fieldName: 256,
    fieldValue: 1024,
    footer: 2048,
    authorName: 256,
    /** title + description + field names and values + footer text + author name, all embeds. */
    total: 6000,
};
const ELLIPSIS = '…';
const FOOTER_BASE = 'agent-loop';
/** Room kept for the footer (which notes what was left out) when sharing out the 6000. */
const FOOTER_RESERVE = 200;
/** The description keeps at least this much (or all it needs, if less) before fields use the rest. */
const DESCRIPTION_RESERVE = 1500;
/** The output tail keeps at least this much of the description (or all it needs, if less). */
const TAIL_RESERVE = 400;
/** A field is cut short rather than left out only if at least this much of its value fits. */
const MIN_FIELD_VALUE = 40;
const OPEN_BLOCK = '```\n';
const CLOSE_BLOCK = '\n```';
/** The webhook JSON body for a halt message (pure; apply redaction before, as postToDiscord does). */
function buildDiscordPayload(message) {
    const title = truncateEnd(singleLine(message.title ?? ''), DISCORD_LIMITS.title);
    // Everything but the footer shares what is left of the 6000 once the title is placed.
    let budget = DISCORD_LIMITS.total - title.length - FOOTER_RESERVE;
    const summary = neutraliseFences(stripControl(message.summary ?? '').trim());
    const tail = message.outputTail === undefined ? '' : neutraliseFences(stripControl(message.outputTail).replace(/^\n+|\s+$/g, ''));
    const descriptionWanted = Math.min(DISCORD_LIMITS.description, summary.length + (tail ? 2 + OPEN_BLOCK.length + tail.length + CLOSE_BLOCK.length : 0));
    // Fields, in order, while they fit next to the description's reserve; the rest are left out
    // (and the footer says how many).
    let fieldBudget = budget - Math.min(descriptionWanted, DESCRIPTION_RESERVE);
    const inputFields = Array.isArray(message.fields) ? message.fields : [];
    const fields = [];
    for (const field of inputFields) {
        if (fields.length >= DISCORD_LIMITS.fields)
            break;
        const name = truncateEnd(nonBlank(singleLine(field.name ?? '')), DISCORD_LIMITS.fieldName);
        let value = truncateEnd(nonBlank(stripControl(field.value ?? '').trim()), DISCORD_LIMITS.fieldValue);
        if (name.length + value.length > fieldBudget) {
            const room = fieldBudget - name.length;
            if (room < Math.min(MIN_FIELD_VALUE, value.length))
                break;
            value = truncateEnd(value, room);
        }
        fields.push(field.inline === undefined ? { name, value } : { name, value, inline: field.inline });
        fieldBudget -= name.length + value.length;
    }
    const usedByFields = fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    budget -= usedByFields;
    const description = composeDescription(summary, tail, Math.min(DISCORD_LIMITS.description, budget));
    const dropped = inputFields.length - fields.length;
    const footer = dropped > 0
        ? `${FOOTER_BASE} · ${dropped} more field${dropped === 1 ? '' : 's'} left out (Discord allows ${DISCORD_LIMITS.fields} fields and ${DISCORD_LIMITS.total} characters per message)`
        : FOOTER_BASE;
    const embed = { fields, footer: { text: footer } };
    if (title)
        embed.title = title;
    if (description)
        embed.description = description;
    const url = message.url === undefined ? undefined : discord_httpUrl(message.url);
    if (url)
        embed.url = url;
    if (typeof message.color === 'number' && Number.isInteger(message.color) && message.color >= 0 && message.color <= 0xffffff) {
        embed.color = message.color;
    }
    return { embeds: [embed], allowed_mentions: { parse: [] } };
}
/** The summary, then the output tail in a code block, in at most `budget` characters. */
function composeDescription(summary, tail, budget) {
    if (budget <= 0)
        return '';
    if (!tail)
        return truncateEnd(summary, budget);
    const overhead = OPEN_BLOCK.length + CLOSE_BLOCK.length;
    const tailBlock = overhead + tail.length;
    const sep = summary ? '\n\n' : '';
    // The summary comes first, but leaves the tail its reserve.
    const summaryRoom = Math.max(0, budget - sep.length - Math.min(tailBlock, overhead + TAIL_RESERVE));
    const head = truncateEnd(summary, summaryRoom);
    const tailRoom = budget - head.length - (head ? sep.length : 0) - overhead;
    if (tailRoom < 40) {
        // No useful room for the output: say so rather than leave it out silently.
        const note = '(agent output left out: no room)';
        const room = budget - (note.length + 2);
        return room > 0 ? `${truncateEnd(summary, room)}\n\n${note}` : truncateEnd(summary, budget);
    }
    return `${head}${head ? sep : ''}${OPEN_BLOCK}${truncateStart(tail, tailRoom)}${CLOSE_BLOCK}`;
}
/** At most `max` characters: the beginning, then "…". */
function truncateEnd(text, max) {
    if (text.length <= max)
        return text;
    if (max <= 0)
        return '';
    let cut = text.slice(0, max - ELLIPSIS.length);
    if (isHighSurrogate(cut.charCodeAt(cut.length - 1)))
        cut = cut.slice(0, -1);
    return cut + ELLIPSIS;
}
/** At most `max` characters: a note of how much was left out, then the end (from a line start if one is near). */
function truncateStart(text, max) {
    if (text.length <= max)
        return text;
    const markerFor = (omitted) => `${ELLIPSIS} (${omitted} earlier characters left out)\n`;
    const keep = max - markerFor(text.length).length; // the longest the marker can be
    if (keep <= 0)
        return truncateEnd(markerFor(text.length).trimEnd(), max);
    let kept = text.slice(text.length - keep);
    const newline = kept.indexOf('\n');
    if (newline >= 0 && newline < 200 && newline < kept.length - 1)
        kept = kept.slice(newline + 1);
    if (isLowSurrogate(kept.charCodeAt(0)))
        kept = kept.slice(1);
    return markerFor(text.length - kept.length) + kept;
}
/** No run of two backticks survives, so no text can open or close a code block (``` or ``). */
function neutraliseFences(text) {
    return text.replace(/`(?=`)/g, '`\u200b');
}
/** ANSI escape sequences and control characters other than newline and tab go. */
function stripControl(text) {
    return String(text)
        .replace(/\r\n?/g, '\n')
        // eslint-disable-next-line no-control-regex
        .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g, '')
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
function singleLine(text) {
    return stripControl(text).replace(/\s+/g, ' ').trim();
}
/** Discord requires field names and values; blank ones (trimmed away) would be rejected. */
function nonBlank(text) {
    return text.trim() ? text : '(empty)';
}
function discord_httpUrl(text) {
    try {
        const url = new URL(text.trim());
        return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
    }
    catch {
        return undefined;
    }
}
function isHighSurrogate(code) {
    return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code) {
    return code >= 0xdc00 && code <= 0xdfff;
}
/** The most time a call spends waiting between attempts (and, with a real clock, in total). */
const DISCORD_WAIT_BUDGET_MS = 30_000;
/** Waits before the 2nd, 3rd, … attempt after a 5xx or network error. */
const DISCORD_BACKOFF_MS = [1000, 2000, 4000, 8000];
/** At most this many requests per call, whatever the answers. */
const DISCORD_MAX_ATTEMPTS = 6;
const WEBHOOK = 'the Discord webhook';
/**
 * POSTs the message to the webhook. Resolves, never rejects: `ok` says whether Discord accepted
 * it; every failure is also passed to `warn` (redacted, without the webhook URL).
 */
async function postToDiscord(webhookUrl, message, deps) {
    const mask = webhookMasker(String(webhookUrl));
    const clean = (text) => {
        try {
            return mask(deps.redact(mask(text)));
        }
        catch {
            return '(a message that could not be redacted)';
        }
    };
    const warn = (text) => {
        try {
            deps.warn(clean(text));
        }
        catch {
            // A broken warn must not turn a failed notification into a failed run.
        }
    };
    const fail = (attempts, reason) => {
        const error = clean(reason);
        warn(`Could not post the halt diagnostic to ${WEBHOOK}: ${error}`);
        return { ok: false, attempts, error };
    };
    try {
        let target;
        try {
            target = new URL(String(webhookUrl).trim());
            if (target.protocol !== 'https:' && target.protocol !== 'http:')
                throw new Error('not http(s)');
        }
        catch {
            return fail(0, `${WEBHOOK} URL is not a valid http(s) URL`);
        }
        target.searchParams.set('wait', 'true');
        let body;
        try {
            const text = (s) => mask(deps.redact(mask(s)));
            const safe = {
                title: text(message.title ?? ''),
                summary: text(message.summary ?? ''),
                fields: (message.fields ?? []).map((f) => ({ ...f, name: text(f.name ?? ''), value: text(f.value ?? '') })),
            };
            if (message.outputTail !== undefined)
                safe.outputTail = text(message.outputTail);
            if (message.url !== undefined)
                safe.url = text(message.url);
            if (message.color !== undefined)
                safe.color = message.color;
            body = JSON.stringify(buildDiscordPayload(safe));
        }
        catch {
            // Without redaction nothing is sent: better no message than a leaked secret.
            return fail(0, 'the message could not be redacted or built, so it was not sent');
        }
        const doFetch = deps.fetch ?? globalThis.fetch;
        const sleep = deps.sleep ?? defaultSleep;
        const now = deps.now ?? Date.now;
        const timeoutMs = deps.requestTimeoutMs ?? 10_000;
        const started = now();
        let waited = 0;
        const spent = () => Math.max(waited, now() - started);
        let backoff = 0;
        let attempts = 0;
        let lastProblem = '';
        for (;;) {
            attempts += 1;
            let retryAfterMs;
            let problem = 'no answer';
            let response;
            const controller = new AbortController();
            const timer = setTimeout(() => controller.abort(), timeoutMs);
            try {
                response = await doFetch(target.href, {
                    method: 'POST',
                    headers: { 'Content-Type': 'application/json' },
                    body,
                    signal: controller.signal,
                });
            }
            catch (error) {
                problem = controller.signal.aborted ? `no answer within ${discord_seconds(timeoutMs)}` : describeNetworkError(error);
            }
            finally {
                clearTimeout(timer);
            }
            if (response) {
                const status = response.status;
                const text = await readBody(response);
                if (status >= 200 && status < 300)
                    return { ok: true, attempts };
                const detail = describeDiscordError(text);
                if (status === 429) {
                    retryAfterMs = retryAfter(text, response.headers);
                    problem = `rate limited (HTTP 429${detail ? `: ${detail}` : ''})`;
                }
                else if (status >= 500) {
                    problem = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
                }
                else {
                    // 4xx other than 429: retrying the same request cannot help.
                    const hint = status === 404 ? ` (${WEBHOOK} does not exist: check --discord-webhook)`
                        : status === 401 || status === 403 ? ` (${WEBHOOK} token is not accepted: check --discord-webhook)`
                            : status === 400 ? ' (Discord rejected the message body)' : '';
                    return fail(attempts, `HTTP ${status}${detail ? `: ${detail}` : ''}${hint}`);
                }
            }
            lastProblem = problem;
            if (attempts >= DISCORD_MAX_ATTEMPTS) {
                return fail(attempts, `${lastProblem}; gave up after ${attempts} attempts`);
            }
            const wait = retryAfterMs ?? DISCORD_BACKOFF_MS[Math.min(backoff++, DISCORD_BACKOFF_MS.length - 1)];
            const left = DISCORD_WAIT_BUDGET_MS - spent();
            if (wait > left) {
                return fail(attempts, `${lastProblem}; retrying would mean waiting ${discord_seconds(wait)}, more than the ${discord_seconds(Math.max(0, left))} left of the ${discord_seconds(DISCORD_WAIT_BUDGET_MS)} budget, so gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`);
            }
            waited += wait;
            await sleep(wait);
        }
    }
    catch (error) {
        return fail(0, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    }
}
function defaultSleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
async function readBody(response) {
    try {
        return await response.text();
    }
    catch {
        return '';
    }
}
/**
 * How long a 429 asks to wait, in ms: the body's `retry_after` (seconds, fractional), else
 * `X-RateLimit-Reset-After`, else `Retry-After` (seconds or an HTTP date); 1 s if none says.
 */
function retryAfter(body, headers) {
    const fromBody = (() => {
        try {
            const parsed = JSON.parse(body);
            const value = parsed && typeof parsed === 'object' ? parsed.retry_after : undefined;
            return typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
        }
        catch {
            return NaN;
        }
    })();
    const candidates = [fromBody, Number(headers.get('x-ratelimit-reset-after') ?? NaN), retryAfterHeader(headers.get('retry-after'))];
    const seconds = candidates.find((s) => Number.isFinite(s) && s >= 0);
    return seconds === undefined ? 1000 : Math.ceil(seconds * 1000);
}
function retryAfterHeader(value) {
    if (value === null || value.trim() === '')
        return NaN;
    const asNumber = Number(value);
    if (Number.isFinite(asNumber))
        return asNumber;
    const date = Date.parse(value);
    return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : NaN;
}
/** Discord's JSON error `{code, message, errors}` in one line; other bodies, shortened. */
function describeDiscordError(body) {
    const text = body.trim();
    if (!text)
        return '';
    try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed === 'object') {
            const { code, message, errors } = parsed;
            const parts = [];
            if (typeof message === 'string')
                parts.push(message);
            if (typeof code === 'number' && code !== 0)
                parts.push(`code ${code}`);
            const where = errors && typeof errors === 'object' ? flattenErrors(errors) : [];
            if (where.length > 0)
                parts.push(where.slice(0, 3).join('; ') + (where.length > 3 ? `; and ${where.length - 3} more` : ''));
            if (parts.length > 0)
                return truncateEnd(parts.join(', '), 500);
        }
    }
    catch {
        // not JSON (e.g. a proxy's HTML error page)
    }
    return truncateEnd(text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim(), 200);
}
/** Discord's nested `errors` object as "embeds.0.title: Must be 256 or fewer in length." lines. */
function flattenErrors(errors, path = '') {
    const out = [];
    for (const [key, value] of Object.entries(errors)) {
        if (key === '_errors' && Array.isArray(value)) {
            for (const e of value) {
                const msg = e && typeof e === 'object' ? e.message : undefined;
                out.push(`${path || 'body'}: ${typeof msg === 'string' ? msg : 'invalid'}`);
            }
        }
        else if (value && typeof value === 'object') {
            out.push(...flattenErrors(value, path ? `${path}.${key}` : key));
        }
    }
    return out;
}
function describeNetworkError(error) {
    if (!(error instanceof Error))
        return `network error: ${String(error)}`;
    const cause = error.cause;
    const causeText = cause instanceof Error
        ? (cause.code !== undefined ? String(cause.code) : cause.message)
        : '';
    return `network error: ${error.message}${causeText && !error.message.includes(causeText) ? ` (${causeText})` : ''}`;
}
function discord_seconds(ms) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
/**
 * Replaces the webhook URL (as given, as parsed, with or without its query) and its token with
 * "the Discord webhook"; and, in case of another spelling, any http(s) URL with /webhooks/ in it.
 */
function webhookMasker(webhookUrl) {
    const literals = new Set([webhookUrl, webhookUrl.trim()]);
    try {
        const url = new URL(webhookUrl.trim());
        literals.add(url.href);
        literals.add(url.origin + url.pathname);
        const withWait = new URL(url.href);
        withWait.searchParams.set('wait', 'true');
        literals.add(withWait.href);
        const segments = url.pathname.split('/').filter(Boolean);
        const at = segments.indexOf('webhooks');
        const token = at >= 0 ? segments[at + 2] : undefined;
        if (token) {
            literals.add(token);
            try {
                literals.add(decodeURIComponent(token));
            }
            catch {
                // not percent-decodable: the raw token is masked already
            }
        }
    }
    catch {
        // not a URL: the literal text is masked
    }
    const list = [...literals].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
    return (text) => {
        let out = String(text);
        for (const literal of list) {
            if (out.includes(literal))
                out = out.split(literal).join(WEBHOOK);
        }
        return out.replace(/https?:\/\/[^\s"'<>]*\/webhooks\/[^\s"'<>]*/gi, WEBHOOK);
    };
}

;// CONCATENATED MODULE: ./src/cli/run.ts
/** `agent-loop run`: builds the engine's dependencies from the options and runs one slice. */














async function runCommand(options, io) {
    const redact = createRedactor(io.secrets);
    const problems = [];
    const fail = () => {
        io.stderr(`agent-loop run: cannot start\n${problems.map((p) => `  - ${redact(p)}`).join('\n')}\n`);
        return 2;
    };
    if (options.source === 'github' && !io.source)
        problems.push("--source github: the GitHub issue source runs inside the GitHub Action; locally use --source beads.");
    const built = createAgent(options, io.env);
    const agent = 'problem' in built ? undefined : built;
    if ('problem' in built)
        problems.push(built.problem);
    if ((options.agent === 'claude' || options.agent === 'codex') && !(await isOnPath(options.agent, io.env.PATH))) {
        const pkg = options.agent === 'claude' ? '@anthropic-ai/claude-code' : '@openai/codex';
        problems.push(`--agent ${options.agent}: \`${options.agent}\` is not on PATH. Install it (npm install -g ${pkg}), or choose another agent with --agent command --agent-command CMD.`);
    }
    const testCommand = options.testCommand ?? detectTestCommand(io.cwd);
    if (!testCommand) {
        problems.push('--test-command: none given and none detected (no package.json test script, pytest configuration or tests/, Makefile test target). Give the command that proves the work is done, e.g. --test-command "npm test".');
    }
    let plan;
    if (options.plan) {
        try {
            plan = (0,external_node_fs_namespaceObject.readFileSync)(external_node_path_default().resolve(io.cwd, options.plan), 'utf8');
        }
        catch (error) {
            problems.push(`--plan: cannot read '${options.plan}' (${error.code ?? error.message}).`);
        }
    }
    const templates = {};
    if (options.tddPrompts) {
        const dir = external_node_path_default().resolve(io.cwd, options.tddPrompts);
        if (!(0,external_node_fs_namespaceObject.existsSync)(dir))
            problems.push(`--tdd-prompts: '${options.tddPrompts}' does not exist. Point it at a directory holding red.md, green.md or refactor.md.`);
        for (const [phase, file] of [['RED', 'red.md'], ['GREEN', 'green.md'], ['REFACTOR', 'refactor.md']]) {
            if ((0,external_node_fs_namespaceObject.existsSync)(external_node_path_default().join(dir, file)))
                templates[phase] = (0,external_node_fs_namespaceObject.readFileSync)(external_node_path_default().join(dir, file), 'utf8');
        }
    }
    const logger = createLogger({ json: options.json, write: io.stdout, clock: io.clock, redact, before: io.beforeEvent });
    const onWarning = (message) => logger.warn('source.warning', message);
    const source = io.source ? io.source(onWarning) : await createBeadsSource({
        issuesFile: external_node_path_default().resolve(io.cwd, options.issuesFile), cwd: io.cwd,
        // An explicit --issues-file means that file, even when bd is installed.
        preferCli: options.issuesFile === '.beads/issues.jsonl',
        onWarning,
    });
    if (!io.source && source.description.startsWith('beads file') && !(0,external_node_fs_namespaceObject.existsSync)(external_node_path_default().resolve(io.cwd, options.issuesFile))) {
        problems.push(`--issues-file: '${options.issuesFile}' does not exist and bd is not on PATH. Point --issues-file at a beads JSONL file, or install beads.`);
    }
    const git = await openGit(io.cwd, io.env);
    if (io.publisher && !git)
        problems.push(`pull requests: ${io.cwd} is not a git work tree. Check the repository out first (actions/checkout) so that each finished issue can be pushed as a branch.`);
    if (problems.length > 0 || !agent || !testCommand)
        return fail();
    const publisher = io.publisher && git ? io.publisher(git, testCommand) : undefined;
    try {
        const result = await runSlice({
            settings: {
                maxIterations: options.maxIterations, sliceIterations: options.sliceIterations, sliceMinutes: options.sliceMinutes,
                iterationDelaySeconds: options.iterationDelay, agentTimeoutMinutes: options.agentTimeoutMinutes,
                batch: options.batch, onSuccess: publisher ? 'pull-request' : options.onSuccess, strict: options.strict, resume: options.resume, fresh: options.fresh,
                testCommand, plan, maxCostUsd: options.maxCostUsd, agentSession: options.agentSession,
                maxRetriesPerStep: options.maxRetriesPerStep, maxConsecutiveEscalations: options.maxConsecutiveEscalations,
                workflow: options.workflow,
            },
            tddSettings: { ...(options.junitFile ? { junitFile: options.junitFile } : {}), templates },
            cwd: io.cwd, stateDir: io.stateDir, source, agent, git, publisher, logger, clock: io.clock, signal: io.signal, redact,
            notify: options.discordWebhook
                ? async (d) => {
                    const r = await postToDiscord(options.discordWebhook, toDiscordMessage(d), {
                        redact, sleep: (ms) => io.clock.sleep(ms), now: () => io.clock.now().getTime(),
                        warn: (message) => logger.warn('discord.failed', message),
                    });
                    if (r.ok)
                        logger.info('discord.posted', `Posted the halt diagnostic to Discord (${r.attempts} attempt${r.attempts === 1 ? '' : 's'}).`);
                }
                : undefined,
            store: new FileCheckpointStore(io.stateDir, { clock: io.clock, redact }),
            runTests: (command, signal) => runTestCommand(command, {
                cwd: io.cwd, env: io.env, timeoutMs: options.agentTimeoutMinutes * 60_000, signal,
                onLine: (line, stream, cut) => logger.output('tests', line, stream, cut),
            }),
        });
        logger.result(result, summaryLine(result));
        await io.onResult?.(result);
        return exitCodeFor(result);
    }
    catch (error) {
        if (error instanceof StartError) {
            problems.push(error.message);
            return fail();
        }
        // Anything else (git refused a checkout, the issue file vanished, the disk is full): stop with
        // the reason. Every recorded iteration is in the checkpoint, so the next run resumes.
        const message = error instanceof Error ? error.message : String(error);
        logger.error('run.error', `The run stopped: ${message}. Recorded iterations are kept in ${io.stateDir}; fix the cause and run again to resume.`, { error: message });
        return 1;
    }
}

;// CONCATENATED MODULE: ./src/cli/status.ts


/** Reads `state.loop` without trusting its shape (it may come from an older or newer version). undefined when there is none. */
function readLoopProgress(state) {
    const loop = state.loop;
    if (!status_isRecord(loop))
        return undefined;
    const cycle = status_isRecord(loop.currentCycle) ? loop.currentCycle : {};
    const halt = status_isRecord(loop.halt) ? loop.halt : {};
    return {
        iteration: count(loop.iteration),
        maxIterations: count(loop.maxIterations),
        failedIterations: count(loop.failedIterations),
        successfulIterations: count(loop.successfulIterations),
        issuesClosed: ids(loop.issuesClosed),
        issuesEscalated: ids(loop.issuesEscalated),
        currentCycleIssueIds: ids(cycle.issueIds),
        haltReason: typeof halt.reason === 'string' && halt.reason !== '' ? halt.reason : null,
        haltMessage: typeof halt.message === 'string' && halt.message !== '' ? halt.message : null,
        consecutiveEscalations: typeof loop.consecutiveEscalations === 'number' ? loop.consecutiveEscalations : null,
        totalEscalations: typeof loop.totalEscalations === 'number' ? loop.totalEscalations : null,
        rateLimitedUntil: typeof loop.rateLimitedUntil === 'string' ? loop.rateLimitedUntil : null,
    };
}
async function statusCommand(opts, deps) {
    const { store, now, out } = deps;
    const { checkpoints, invalid } = await store.list();
    const sorted = newestFirst(checkpoints);
    const resumable = pickResumable(checkpoints);
    if (opts.json) {
        out(JSON.stringify({
            stateDir: opts.stateDir,
            resumable: resumable?.id ?? null,
            checkpoints: sorted.map((cp) => ({
                id: cp.id,
                phase: cp.phase,
                timestamp: cp.timestamp,
                ageDays: ageOf(cp, now),
                errors: cp.errors ?? [],
                resumable: isResumable(cp),
                wouldResume: cp === resumable,
                resumeAt: resumePoint(cp) ?? null,
                loop: readLoopProgress(cp.state) ?? null,
                warnings: checkpointWarnings(cp),
            })),
            invalid,
        }));
        return 0;
    }
    if (sorted.length === 0) {
        out(`No ${invalid.length > 0 ? 'valid ' : ''}checkpoints in ${store.dir}.`);
        out(`\`agent-loop run --state-dir ${opts.stateDir}\` writes one as it works, and resumes from the newest on its next start.`);
    }
    else {
        out(`Checkpoints in ${store.dir} (${sorted.length}, newest first):`);
        for (const cp of sorted) {
            out('');
            for (const line of describeCheckpoint(cp, cp === resumable, now))
                out(line);
        }
        out('');
        out(resumable
            ? `\`agent-loop run --state-dir ${opts.stateDir}\` would resume from ${resumable.id} at the ${resumePoint(resumable)} phase (\`--resume ID\` picks another, \`--fresh\` ignores them).`
            : `Nothing to resume: every checkpoint records completed work. \`agent-loop run --state-dir ${opts.stateDir}\` starts afresh.`);
    }
    if (invalid.length > 0) {
        out('');
        for (const bad of invalid)
            out(`skipped ${bad.path}: ${bad.reason}`);
    }
    return 0;
}
function describeCheckpoint(cp, wouldResume, now) {
    const lines = [`${cp.id}${wouldResume ? '  ← would be resumed' : ''}`];
    const next = resumePoint(cp);
    lines.push(`  phase:      ${cp.phase}${next ? ` (resumes at ${next})` : ' (nothing left to do)'}`);
    lines.push(`  timestamp:  ${cp.timestamp}`);
    lines.push(`  age:        ${ageOf(cp, now).toFixed(1)} days`);
    const loop = readLoopProgress(cp.state);
    if (loop)
        lines.push(...describeLoop(loop));
    else
        lines.push('  loop:       no loop progress recorded');
    for (const warning of checkpointWarnings(cp))
        lines.push(`  warning:    ${warning}`);
    if (cp.errors && cp.errors.length > 0) {
        lines.push('  errors:');
        for (const error of cp.errors)
            lines.push(`    - ${error}`);
    }
    return lines;
}
function describeLoop(loop) {
    const lines = [];
    if (loop.iteration !== null) {
        lines.push(`  iteration:  ${loop.iteration}${loop.maxIterations !== null ? ` of ${loop.maxIterations}` : ''}`);
    }
    else if (loop.maxIterations !== null) {
        lines.push(`  iteration:  max ${loop.maxIterations}`);
    }
    const outcomes = [
        loop.successfulIterations !== null ? `${loop.successfulIterations} successful` : undefined,
        loop.failedIterations !== null ? `${loop.failedIterations} failed` : undefined,
    ].filter((part) => part !== undefined);
    if (outcomes.length > 0)
        lines.push(`  iterations: ${outcomes.join(', ')}`);
    if (loop.issuesClosed !== null)
        lines.push(`  closed:     ${listIds(loop.issuesClosed)}`);
    if (loop.issuesEscalated !== null)
        lines.push(`  escalated:  ${listIds(loop.issuesEscalated)}`);
    if (loop.currentCycleIssueIds !== null)
        lines.push(`  in cycle:   ${listIds(loop.currentCycleIssueIds)}`);
    if (loop.haltReason !== null)
        lines.push(`  halted:     ${loop.haltReason}${loop.haltMessage ? `: ${loop.haltMessage}` : ''}`);
    if (loop.totalEscalations)
        lines.push(`  escalations: ${loop.consecutiveEscalations ?? 0} in a row, ${loop.totalEscalations} in all`);
    if (loop.rateLimitedUntil)
        lines.push(`  rate limited until ${loop.rateLimitedUntil}`);
    return lines;
}
function listIds(ids) {
    return ids.length === 0 ? 'none' : `${ids.length} (${ids.join(', ')})`;
}
/** Age in days; a checkpoint from the store always has a valid timestamp, but a foreign store might not. */
function ageOf(cp, now) {
    try {
        return ageInDays(cp, now);
    }
    catch {
        return Number.POSITIVE_INFINITY;
    }
}
function status_isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function count(value) {
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function ids(value) {
    if (!Array.isArray(value))
        return null;
    return value.filter((item) => typeof item === 'string' || typeof item === 'number').map(String);
}

;// CONCATENATED MODULE: ./src/cli/main.ts
/** Dispatches a command line to run, status or cleanup. Exit codes: 0 ok/continuing, 1 halted, 2 usage. */









const VERSION = '0.1.0';
async function main(argv, io) {
    const args = parseArgs(argv);
    if (args.version) {
        io.stdout(`${VERSION}\n`);
        return 0;
    }
    if (args.help || !args.command) {
        io.stdout(`${args.command ? commandHelp(args.command) : mainHelp(VERSION)}\n`);
        if (args.help || argv.length === 0)
            return args.problems.length ? 2 : argv.length === 0 ? 2 : 0;
    }
    if (!args.command)
        return main_usageError(io, args.command, args.problems.map((p) => p.message));
    // Every problem at once: those of the command line's shape and those of the values.
    let options;
    let secrets;
    try {
        ({ options, secrets } = loadConfig({
            command: args.command, flags: args.values, env: io.env,
            readFile: (p) => (0,external_node_fs_namespaceObject.readFileSync)(external_node_path_default().resolve(io.cwd, p), 'utf8'),
        }));
    }
    catch (error) {
        if (error instanceof ConfigError)
            return main_usageError(io, args.command, [...args.problems, ...error.problems].map((p) => p.message));
        throw error;
    }
    if (args.problems.length > 0)
        return main_usageError(io, args.command, args.problems.map((p) => p.message));
    const clock = io.clock ?? systemClock;
    const stateDir = external_node_path_default().resolve(io.cwd, options.stateDir);
    const out = (line) => io.stdout(`${line}\n`);
    switch (args.command) {
        case 'run':
            return runCommand(options, { ...io, clock, secrets, stateDir });
        case 'status':
            return statusCommand({ stateDir, json: options.json }, { store: new FileCheckpointStore(stateDir, { clock }), now: clock.now(), out });
        case 'cleanup':
            return cleanupCommand({ stateDir, olderThanDays: options.olderThan, all: options.all, dryRun: options.dryRun, json: options.json }, { store: new FileCheckpointStore(stateDir, { clock }), now: clock.now(), out });
    }
}
function main_usageError(io, command, messages) {
    io.stderr(`agent-loop${command ? ` ${command}` : ''}: invalid usage\n${messages.map((m) => `  - ${m}`).join('\n')}\nRun agent-loop ${command ?? ''} --help for every option.\n`.replace('  --help', ' --help'));
    return 2;
}

;// CONCATENATED MODULE: ./src/cli.ts
// The agent-loop command. Thin: everything happens in cli/main.ts with its dependencies passed in.

const controller = new AbortController();
let signalled;
for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
        if (signalled)
            process.exit(sig === 'SIGINT' ? 130 : 143);
        signalled = sig;
        controller.abort();
    });
}
// A reader that goes away (`agent-loop status | head`) closes the pipe: stop writing to it, and let
// the command (a run with its agent, above all) finish as it would have.
const cli_closed = { stdout: false, stderr: false };
for (const name of ['stdout', 'stderr']) {
    process[name].on('error', (error) => {
        if (error.code !== 'EPIPE')
            throw error;
        cli_closed[name] = true;
    });
}
main(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    stdout: (s) => void (cli_closed.stdout || process.stdout.write(s)),
    stderr: (s) => void (cli_closed.stderr || process.stderr.write(s)),
    signal: controller.signal,
}).then((code) => {
    process.exitCode = signalled ? (signalled === 'SIGINT' ? 130 : 143) : code;
}, (error) => {
    process.stderr.write(`agent-loop: unexpected error: ${error?.stack ?? String(error)}\n`);
    process.exitCode = 1;
});

