#!/usr/bin/node
// SPDX-License-Identifier: MIT
// lab_node_get.js -- GET one https URL with node's own https and tls, and
// print the body (exit 0) or "error <code or status>" (exit 3).  Node 20's
// fetch and https ignore HTTPS_PROXY (there is no NODE_USE_ENV_PROXY nor
// --use-env-proxy before node 22/24), so this client honours it by hand
// the way proxy-aware node clients do: HTTPS_PROXY=http://h:p set -> an
// HTTP CONNECT to h:p for host:port, then TLS over that socket with the
// SNI of the URL's host; unset -> straight to the host.  The CA comes from
// NODE_EXTRA_CA_CERTS, as for every node client.
// usage: lab_node_get.js https://host[:port]/path
'use strict';
const http = require('http');
const https = require('https');
const tls = require('tls');

const url = new URL(process.argv[2]);
const port = Number(url.port || 443);
const proxy = process.env.HTTPS_PROXY || process.env.https_proxy;

function fail(what) {
  console.log('error ' + what);
  process.exit(3);
}

function get(socket) {
  const opts = { host: url.hostname, port, path: url.pathname + url.search,
                 servername: url.hostname };
  if (socket) opts.createConnection = () => tls.connect({ socket, servername: url.hostname });
  https.get(opts, (res) => {
    let body = '';
    res.on('data', (d) => { body += d; });
    res.on('end', () => {
      if (res.statusCode !== 200) fail('status ' + res.statusCode);
      process.stdout.write(body);
    });
  }).on('error', (e) => fail(e.code || e.message));
}

if (!proxy) {
  get(null);
} else {
  const p = new URL(proxy);
  http.request({ host: p.hostname, port: Number(p.port), method: 'CONNECT',
                 path: url.hostname + ':' + port })
    .on('connect', (res, socket) => {
      if (res.statusCode !== 200) fail('CONNECT ' + res.statusCode);
      get(socket);
    })
    .on('error', (e) => fail(e.code || e.message))
    .end();
}
