import 'server-only';
import { fieldErrors, z } from '@/lib/zod';
import {
  createOrganization,
  organizationById,
  organizationInput,
  setOrganizationAdmin,
} from '@/server/features/organizations';
import { settleOrganizationBilling } from '@/server/features/invoice-billing';
import { type AdminCommand, UsageError, defineCommand } from './command';
import { emailField } from '@/server/features/identity';
import { requireUser } from './user-commands';

/** 法人プラン (docs/decisions/058-organizations.md): register an organisation, name its admins. */

const list = (value: unknown) =>
  value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value];

const refused = (errors: Record<string, string>) =>
  new UsageError(Object.values(errors).join(' ') || '入力内容を確認してください。');

const orgCreate = defineCommand({
  name: 'org-create',
  summary: '法人プランの法人を登録し、その ID を表示する (最後の行に ID だけ)',
  usage:
    'org-create --name N --seats S --domain D [--domain D2] --billing invoice|card [--plan yearly|monthly] [--addressee "N 御中"] [--contact-name C] [--contact-email E]',
  args: z
    .object({
      name: z.string(),
      seats: z.string(),
      domain: z.unknown().optional(),
      billing: z.string(),
      plan: z.string().default('yearly'),
      addressee: z.string().optional(),
      'contact-name': z.string().optional(),
      'contact-email': z.string().optional(),
    })
    .strict(),
  async run({ database, actor }, args) {
    const parsed = organizationInput.safeParse({
      name: args.name,
      addressee: args.addressee ?? `${args.name} 御中`,
      billingContactName: args['contact-name'],
      billingContactEmail: args['contact-email'],
      seats: args.seats,
      planKey: args.plan,
      billing: args.billing,
      domains: list(args.domain),
    });
    if (!parsed.success) throw refused(fieldErrors(parsed.error));
    const made = await createOrganization(database.db, parsed.data, { actor });
    if (!made.ok) throw refused(made.fieldErrors);
    const unbilled = await settleOrganizationBilling(database.db, made.id, { actor });
    return [
      `法人「${parsed.data.name}」を登録しました（${parsed.data.seats} 席、ドメイン ${parsed.data.domains.join(', ') || 'なし'}、${parsed.data.billing === 'invoice' ? '請求書払い' : 'カード払い'}）。`,
      ...(unbilled ? [unbilled] : []),
      made.id,
    ];
  },
});

const orgSetAdmin = defineCommand({
  name: 'org-set-admin',
  summary: '読者を法人の管理者にする (/account/organization を使えるようになる)',
  usage: 'org-set-admin --org ID --email E',
  args: z.object({ org: z.string().max(100), email: emailField }).strict(),
  async run({ database, actor }, { org, email }) {
    const found = await organizationById(database.db, org);
    if (!found) throw new UsageError(`ID ${org} の法人はありません。`);
    const reader = await requireUser(database.db, email);
    await setOrganizationAdmin(database.db, found.id, reader.id, { actor });
    return [`${email} を「${found.name}」の管理者にしました。`];
  },
});

export const organizationCommands: AdminCommand[] = [orgCreate, orgSetAdmin];
