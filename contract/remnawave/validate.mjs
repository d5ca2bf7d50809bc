// Checks recorded exchanges with the Remnawave panel against the panel's official contract,
// `@remnawave/backend-contract` (its zod schemas are the request and response schemas of every
// command). Usage: node validate.mjs exchanges.json
//
// Each exchange is {method, path, query, request, status, response}. For each one:
//  - the command is found by method and URL pattern (TSQ_url);
//  - path parameters are checked with RequestParamSchema, the query string's with
//    RequestQuerySchema (a parameter it does not declare is an error), the body with RequestBodySchema, and
//    a body sent to a command without one, or a key the schema does not declare, is an error
//    (zod drops unknown keys silently, so a misspelt field would otherwise pass);
//  - a 2xx answer is checked with ResponseSchema ({response: ...} included), unknown keys too;
//  - an error answer must have one of the panel's error shapes.
//  - an entry {webhook: body} is a webhook the panel sent: checked with the schema of its scope
//    (RemnawaveWebhookUserEvents, RemnawaveWebhookUserHwidDevicesEvents), unknown keys too.
// Exit code 0 when everything conforms, 1 with the findings otherwise.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import contract from '@remnawave/backend-contract';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const version = require('@remnawave/backend-contract/package.json').version;

const commands = Object.entries(contract)
    .filter(([, c]) => c && typeof c === 'object' && c.endpointDetails && typeof c.TSQ_url === 'string')
    .map(([name, c]) => {
        const pattern = c.TSQ_url.replace(/\/+$/, '');
        const params = [...pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
        const regex = new RegExp('^' + pattern.replace(/:[A-Za-z]+/g, '([^/]+)') + '$');
        return { name, c, method: c.endpointDetails.REQUEST_METHOD.toUpperCase(), regex, params };
    })
    // Literal routes first: /api/users/by-username/x is not /api/users/:userId.
    .sort((a, b) => a.params.length - b.params.length);

function unknownKeys(schema, value, path = '') {
    const out = [];
    const def = schema?._zod?.def;
    if (!def || value === null || typeof value !== 'object') return out;
    switch (def.type) {
        case 'object':
            if (Array.isArray(value)) break;
            for (const k of Object.keys(value)) {
                if (!(k in def.shape)) out.push(`${path}${k}`);
                else out.push(...unknownKeys(def.shape[k], value[k], `${path}${k}.`));
            }
            break;
        case 'array':
            if (Array.isArray(value)) value.forEach((v, i) => out.push(...unknownKeys(def.element, v, `${path}${i}.`)));
            break;
        case 'optional':
        case 'nullable':
        case 'default':
        case 'prefault':
            out.push(...unknownKeys(def.innerType, value, path));
            break;
        case 'pipe':
            out.push(...unknownKeys(def.in, value, path));
            break;
    }
    return out;
}

function check(schema, value, what, problems) {
    const r = schema.safeParse(value);
    if (!r.success) problems.push(`${what}: ${z.prettifyError(r.error).replace(/\n/g, '; ')}`);
    const extra = unknownKeys(schema, value);
    if (extra.length) problems.push(`${what}: keys the contract does not declare: ${extra.join(', ')}`);
}

function hasKeys(body, keys) {
    return body && typeof body === 'object' && keys.every((k) => k in body);
}

const exchanges = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const findings = [];
const webhookSchemas = {
    user: contract.RemnawaveWebhookUserEvents,
    user_hwid_devices: contract.RemnawaveWebhookUserHwidDevicesEvents,
};
exchanges.forEach((e, i) => {
    if (e.webhook) {
        const problems = [];
        const schema = webhookSchemas[e.webhook.scope];
        if (!schema) problems.push(`a scope the emulator does not send: ${e.webhook.scope}`);
        else check(schema, e.webhook, 'webhook', problems);
        if (problems.length) findings.push(`#${i} webhook ${e.webhook.event}:\n  ${problems.join('\n  ')}`);
        return;
    }
    const label = `#${i} ${e.method} ${e.path} -> ${e.status}`;
    const path = e.path.replace(/\/+$/, '');
    const found = commands.find((k) => k.method === e.method && k.regex.test(path));
    if (!found) {
        findings.push(`${label}: no command of the contract has this method and path`);
        return;
    }
    const { c, name, regex, params } = found;
    const problems = [];
    const values = regex.exec(path).slice(1);
    if (c.RequestParamSchema) {
        check(c.RequestParamSchema, Object.fromEntries(params.map((p, j) => [p, decodeURIComponent(values[j])])), 'path', problems);
    }
    if (c.RequestQuerySchema) {
        check(c.RequestQuerySchema, e.query ?? {}, 'query', problems);
    } else if (e.query && Object.keys(e.query).length) {
        problems.push('query: the command takes no query parameters');
    }
    if (c.RequestBodySchema) {
        check(c.RequestBodySchema, e.request ?? undefined, 'request body', problems);
    } else if (e.request !== null && e.request !== undefined) {
        problems.push('request body: the command takes no body');
    }
    if (e.status >= 200 && e.status < 300) {
        if (c.ResponseSchema) check(c.ResponseSchema, e.response, 'response', problems);
        else if (e.response !== null && e.response !== undefined) problems.push('response: the command answers without a body');
    } else if (
        !hasKeys(e.response, ['timestamp', 'path', 'message', 'errorCode']) &&
        !hasKeys(e.response, ['statusCode', 'message', 'errors']) &&
        !hasKeys(e.response, ['statusCode', 'message'])
    ) {
        problems.push(`error answer: not one of the panel's error shapes: ${JSON.stringify(e.response)}`);
    }
    if (problems.length) findings.push(`${label} (${name}):\n  ${problems.join('\n  ')}`);
});

if (findings.length) {
    console.error(`@remnawave/backend-contract ${version}: ${findings.length} of ${exchanges.length} exchanges do not conform`);
    console.error(findings.join('\n'));
    process.exit(1);
}
console.log(`@remnawave/backend-contract ${version}: all ${exchanges.length} exchanges and webhooks conform`);
