// The unsubscribe page a person opens from a mail's visible link: plain HTML from the API, no script.

const head = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>Unsubscribe — Porchlight</title>
<style>body{font-family:system-ui,sans-serif;color:#1e293b;line-height:1.5;max-width:32rem;margin:3rem auto;padding:0 1rem}
button{font:inherit;background:#b45309;color:#fff;border:0;border-radius:.5rem;padding:.75rem 1.5rem;min-height:44px;cursor:pointer}
button:focus-visible{outline:3px solid #1e293b;outline-offset:2px}</style></head><body><main>`

const bodies = {
  ask: `<h1>Unsubscribe from these mails?</h1>
<p>You will get no more mail from this agent through Porchlight.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<input type="hidden" name="from" value="page"><button type="submit">Unsubscribe</button></form>`,
  done: `<h1>You are unsubscribed</h1><p>You will get no more mail from this agent through Porchlight.</p>`,
  unknown: `<h1>This link does not work</h1><p>It may have been copied only in part. Use the link in the mail itself.</p>`,
}

export function unsubscribePage(state: keyof typeof bodies): string {
  return `${head}${bodies[state]}</main></body></html>`
}
