import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await b.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
const p = await ctx.newPage();
await p.goto('http://127.0.0.1:39287/record');
await p.waitForTimeout(1500);
await p.screenshot({ path: '/tmp/i18nwork/rec390.png' });
console.log(JSON.stringify(await p.locator('header.site-head').boundingBox()));
await b.close();
