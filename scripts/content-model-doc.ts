/** `npm run docs:content-model`: writes docs/content-model.md from the model. */
import fs from 'node:fs';
import path from 'node:path';
import { contentModelMarkdown } from '@/server/services/cms/model-doc';

const file = path.resolve(import.meta.dirname, '../docs/content-model.md');
fs.writeFileSync(file, contentModelMarkdown());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
