import 'server-only';
import type { EmploymentType, Occupation, Prefecture, RemoteOption, SalaryUnit } from '@/lib/jobs';
import type { POST_FORMATS } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '../richtext/members-divider';
import { composeBody } from './compose-body';
import { DEMO_COVER_COUNT, demoCover, demoFile, demoImage, demoSeconds } from './demo-media';
import type { TopicKey } from './demo-text';

/**
 * The demo corpus: a realistic, entirely fictional set of content for every list endpoint, in
 * the order it must be written (an item's references before the item). Ids are stable, so the
 * seed can tell what is already there. Object pages live in demo-pages.ts.
 */

export type DemoItem = { id: string; body: Record<string, unknown> };
export type DemoList = { endpoint: string; items: readonly DemoItem[] };

type PostFormat = (typeof POST_FORMATS)[number];

// ---------------------------------------------------------------------------------------------
// Writers

const WRITERS = {
  tanaka: {
    name: '田中 美穂',
    nameKana: 'たなか みほ',
    role: 'AXIS Membership 編集長',
    profile:
      '出版社で建築誌とデザイン誌の編集に携わったのち、2019年より本メディアの編集長。展覧会の企画やトークイベントの司会も務める。関心は、デザインが暮らしの中でどう使われ、どう語られるか。',
    avatar: 'avatar-01.png',
  },
  kobayashi: {
    name: '小林 亮',
    nameKana: 'こばやし りょう',
    role: '建築ライター',
    profile:
      '設計事務所勤務を経て独立。住宅から公共建築まで、年間五十件以上の建築を取材している。連載「まちを編む建築」を担当。一級建築士。',
    avatar: 'avatar-02.png',
  },
  nakamura: {
    name: '中村 沙織',
    nameKana: 'なかむら さおり',
    role: 'グラフィックデザイナー、文筆家',
    profile:
      'デザイン事務所でブックデザインとサイン計画に携わったのち、独立。自らもデザインの現場に身を置きながら、グラフィックデザインにまつわる文章を執筆している。',
    avatar: 'avatar-03.png',
  },
  ishikawa: {
    name: '石川 拓海',
    nameKana: 'いしかわ たくみ',
    role: 'プロダクトデザイン研究者',
    profile:
      '大学でプロダクトデザインと製造技術の関係を研究。家電メーカーのデザイン部門に十年勤めた経験をもとに、量産品のデザインについて執筆している。',
    avatar: 'avatar-04.png',
  },
  fujii: {
    name: '藤井 玲奈',
    nameKana: 'ふじい れいな',
    role: 'タイポグラフィ研究者',
    profile:
      '書体メーカーで和文書体の制作に携わったのち、研究者に転身。日本語組版の歴史と現在を主なテーマとする。連載「文字を組む人たち」を担当。',
    avatar: 'avatar-05.png',
  },
  matsumoto: {
    name: '松本 葵',
    nameKana: 'まつもと あおい',
    role: 'サステナビリティ・ジャーナリスト',
    profile:
      '環境分野の専門誌記者を経てフリーランス。素材の循環や地域資源の活用をテーマに、企業や産地の取り組みを取材している。',
    avatar: 'avatar-06.png',
  },
  hayashi: {
    name: '林 恭平',
    nameKana: 'はやし きょうへい',
    role: '工芸ライター、キュレーター',
    profile:
      '全国の工芸産地を訪ね歩き、作り手の仕事を記録している。産地と都市をつなぐ展示の企画も手がける。連載「素材の現在地」を担当。',
  },
  okada: {
    name: '岡田 健司',
    nameKana: 'おかだ けんじ',
    role: '写真家',
    profile:
      '建築とプロダクトの撮影を中心に活動。展覧会や工房の取材では、撮影と執筆の両方を担当することも多い。',
  },
  mori: {
    name: '森 千尋',
    nameKana: 'もり ちひろ',
    role: '編集部',
    profile:
      'デザインリサーチの会社を経て編集部に参加。デザイン政策や教育、経営とデザインの関係など、領域を横断するテーマを担当している。',
  },
} as const;
type WriterKey = keyof typeof WRITERS;
const writerId = (key: WriterKey) => `writer-${key}`;

// ---------------------------------------------------------------------------------------------
// Tags

const TAGS = {
  exhibition: '展覧会',
  interview: 'インタビュー',
  timber: '木造',
  lighting: '照明',
  typeface: '書体',
  recycled: '再生素材',
  'book-design': 'ブックデザイン',
  furniture: '家具',
  city: '都市',
  workshop: '工房',
  color: '色彩',
  signage: 'サイン計画',
  package: 'パッケージ',
  research: 'リサーチ',
  typesetting: '組版',
  urushi: '漆',
} as const;
type TagKey = keyof typeof TAGS;
const tagId = (key: TagKey) => `tag-${key}`;

// ---------------------------------------------------------------------------------------------
// Categories (特集)

/**
 * One feature issue a quarter, from the site's launch in June 2025; the newest is the current
 * one (isFeatured). An issue gathers the posts of its theme, earlier ones included.
 */
const CATEGORIES: Record<
  TopicKey,
  {
    name: string;
    description: string;
    cover: number;
    issueNumber: number;
    publishedAt: string;
    isFeatured?: boolean;
  }
> = {
  architecture: {
    name: '建築',
    description:
      '住宅から公共建築、都市の余白まで。建築をつくる人と使う人の両方の視点から、空間のいまを読み解く特集。',
    cover: 1,
    issueNumber: 101,
    publishedAt: '2025-06-02T00:00:00.000Z',
  },
  graphic: {
    name: 'グラフィック',
    description:
      'ポスター、ブックデザイン、サイン計画、アイデンティティ。情報とかたちのあいだで考え続けるデザイナーの仕事を追う特集。',
    cover: 4,
    issueNumber: 102,
    publishedAt: '2025-09-01T00:00:00.000Z',
  },
  product: {
    name: 'プロダクト',
    description:
      '家具、照明、家電、日用品。手に触れる道具のデザインを、試作と量産の現場から見つめ直す特集。',
    cover: 5,
    issueNumber: 103,
    publishedAt: '2025-12-01T00:00:00.000Z',
  },
  typography: {
    name: 'タイポグラフィ',
    description:
      '書体の制作から本文の組版まで。日本語の文字を美しく、読みやすく組むための知恵と、その担い手たちを紹介する特集。',
    cover: 2,
    issueNumber: 104,
    publishedAt: '2026-03-02T00:00:00.000Z',
  },
  craft: {
    name: '工芸と素材',
    description:
      '漆、ガラス、金属、陶磁器。産地の技術と素材の力を、作り手とデザイナーの協働から探る特集。',
    cover: 7,
    issueNumber: 105,
    publishedAt: '2026-06-01T00:00:00.000Z',
  },
  sustainability: {
    name: 'サステナビリティ',
    description:
      '循環を前提にしたものづくりは、デザインをどう変えるのか。再生素材、部材の再利用、長く使える製品まで、現在進行形の取り組みを追う今号の特集。',
    cover: 15,
    issueNumber: 106,
    publishedAt: '2026-09-01T00:00:00.000Z',
    isFeatured: true,
  },
};
const categoryId = (key: TopicKey) => `cat-${key}`;

// ---------------------------------------------------------------------------------------------
// Series (連載)

const SERIES = {
  town: {
    title: 'まちを編む建築',
    description:
      '空き店舗、路地、駅前広場、高架下。地域の暮らしを少しずつ編み直していく小さな建築を、建築ライターの小林亮が訪ねる連載。',
    cover: 32,
    writers: ['kobayashi'],
  },
  typesetters: {
    title: '文字を組む人たち',
    description:
      '書体をつくる人、組版をする人、校正をする人。日本語の文字を支える仕事の現場を、タイポグラフィ研究者の藤井玲奈が訪ねるインタビュー連載。',
    cover: 10,
    writers: ['fujii'],
  },
  material: {
    title: '素材の現在地',
    description:
      '漆、真鍮、ガラス、鋳物。素材と向き合う作り手の仕事から、ものづくりのこれからを考える。工芸ライターの林恭平による連載。',
    cover: 19,
    writers: ['hayashi'],
  },
} as const satisfies Record<string, { writers: readonly WriterKey[] } & Record<string, unknown>>;
type SeriesKey = keyof typeof SERIES;
const seriesId = (key: SeriesKey) => `series-${key}`;

// ---------------------------------------------------------------------------------------------
// Posts

type PostSpec = {
  title: string;
  subject: string;
  description: string;
  category: TopicKey;
  format: PostFormat;
  tags: TagKey[];
  writers: WriterKey[];
  series?: SeriesKey;
  person?: { name: string; role: string };
};

/** In publication order, oldest first. People and places are fictional. */
const POSTS: readonly PostSpec[] = [
  {
    title: '十年後の建築を設計するということ',
    subject: '竣工後の時間を見据えた建築',
    description:
      '竣工写真の美しさだけでは、建築の価値は測れない。使われ、汚れ、手を加えられていく十年後の姿を想像しながら設計する建築家たちの思考を追う。',
    category: 'architecture',
    format: 'insight',
    tags: ['city', 'research'],
    writers: ['kobayashi'],
  },
  {
    title: '余白を残すポスター、情報を削る勇気',
    subject: 'ポスターにおける情報の取捨選択',
    description:
      '街角で目に留まるのはほんの数秒。限られた時間に何を伝え、何を手放すのか。情報を削ることから始まるポスターデザインの現在を、三つの事例から読み解く。',
    category: 'graphic',
    format: 'article',
    tags: ['color', 'research'],
    writers: ['nakamura'],
  },
  {
    title: '商店街の空き店舗が、小さな図書室になるまで',
    subject: '空き店舗を生かした小さな図書室',
    description:
      'シャッターの閉じた商店街に、小さな図書室が生まれた。設計者と住民が一年をかけて対話を重ね、空き店舗を地域の居場所へと変えていったプロセスを報告する。',
    category: 'architecture',
    format: 'report',
    tags: ['city', 'timber'],
    writers: ['kobayashi'],
    series: 'town',
  },
  {
    title: '椅子の座面に宿る、数ミリの判断',
    subject: '椅子の座面の設計',
    description:
      '一日に何時間も身体を預ける椅子。その座り心地は、座面の傾きや縁の丸みといった数ミリ単位の判断で決まる。家具デザイナーの試作の現場を訪ねた。',
    category: 'product',
    format: 'article',
    tags: ['furniture'],
    writers: ['ishikawa'],
  },
  {
    title: '書体デザイナー・篠宮奈央さんに聞く、二万字と向き合う日々',
    subject: '和文書体の制作',
    description:
      '和文書体の制作には、二万を超える文字を一つの家族としてまとめ上げる根気が要る。書体デザイナーの篠宮奈央さんに、骨格づくりから仕上げまでの道のりを聞いた。',
    category: 'typography',
    format: 'interview',
    tags: ['typeface', 'interview'],
    writers: ['fujii'],
    series: 'typesetters',
    person: { name: '篠宮奈央', role: '書体デザイナー' },
  },
  {
    title: '再生素材は本当に「環境に優しい」のか',
    subject: '再生素材の利用',
    description:
      '回収したプラスチックや繊維から生まれる再生素材は、品質も見た目も大きく向上した。しかし、使うこと自体が目的になっていないか。数字をもとに冷静に考える。',
    category: 'sustainability',
    format: 'insight',
    tags: ['recycled', 'research'],
    writers: ['matsumoto'],
  },
  {
    title: '漆を研ぐ時間　若い作り手が産地を目指す理由',
    subject: '漆の仕事',
    description:
      '塗っては研ぐ工程を何十回も繰り返す漆の仕事。効率とは無縁の素材に、なぜいま若い作り手が惹かれるのか。北陸のある小さな産地の工房を訪ねた。',
    category: 'craft',
    format: 'report',
    tags: ['urushi', 'workshop'],
    writers: ['hayashi'],
    series: 'material',
  },
  {
    title: 'サイン計画は「気づかれない」ことを目指す',
    subject: '公共空間のサイン計画',
    description:
      '駅や病院で迷わず目的地にたどり着けたとき、私たちはサインの存在をほとんど意識しない。動線調査と文字サイズの検証を重ねるサインデザインの舞台裏に迫る。',
    category: 'graphic',
    format: 'article',
    tags: ['signage', 'typeface'],
    writers: ['nakamura'],
  },
  {
    title: '木造の公共建築が増えている理由',
    subject: '木造の公共建築',
    description:
      '各地で木造の庁舎や学校が次々と竣工している。CLTの普及と森林政策が後押しする一方で、木を扱う難しさも見えてきた。設計と施工の現場から、その実態を探る。',
    category: 'architecture',
    format: 'insight',
    tags: ['timber', 'research'],
    writers: ['kobayashi'],
  },
  {
    title: '展覧会レポート「試作のアーカイブ」展',
    subject: '試作品を主役にした展覧会',
    description:
      '完成品ではなく、放棄された案や失敗した試作を等しく並べた展覧会が話題を呼んでいる。一つのかたちが選ばれるまでの膨大な検討を追体験できる会場をレポートする。',
    category: 'product',
    format: 'report',
    tags: ['exhibition'],
    writers: ['okada', 'tanaka'],
  },
  {
    title: '照明デザイナー・宇佐見律さんが語る、消えているときの照明',
    subject: '照明器具のデザイン',
    description:
      '照明器具は、点灯していない昼間の姿も問われるプロダクトだ。照明デザイナーの宇佐見律さんに、光と形、その両方をデザインすることの面白さを聞いた。',
    category: 'product',
    format: 'interview',
    tags: ['lighting', 'interview'],
    writers: ['ishikawa'],
    person: { name: '宇佐見律', role: '照明デザイナー' },
  },
  {
    title: '混植の作法　和文と欧文を美しく並べる',
    subject: '和文と欧文の混植',
    description:
      '和文と欧文を一行に並べると、欧文だけが小さく沈んで見えることがある。ベースラインと字面の大きさを揃える混植の調整を、実例とともに解説する。',
    category: 'typography',
    format: 'article',
    tags: ['typeface', 'typesetting'],
    writers: ['fujii'],
  },
  {
    title: '解体材が、次の建物の一部になる',
    subject: '解体された建物の部材の再利用',
    description:
      '古い梁や建具、タイルを新しい建物に組み込む試みが広がっている。資源の節約にとどまらず、場所の記憶を受け継ぐ手法としての部材の再利用を取材した。',
    category: 'sustainability',
    format: 'report',
    tags: ['recycled', 'timber'],
    writers: ['matsumoto'],
  },
  {
    title: '装丁家・沢渡千景さんと読む、本の「手触り」',
    subject: 'ブックデザイン',
    description:
      '紙の質感、重さ、開きやすさ、見返しの色。装丁は本の内容に対する最初の解釈でもある。装丁家の沢渡千景さんに、手に取られる本をつくる仕事について聞いた。',
    category: 'graphic',
    format: 'interview',
    tags: ['book-design', 'interview'],
    writers: ['nakamura'],
    person: { name: '沢渡千景', role: '装丁家' },
  },
  {
    title: '真鍮は、触れるほど美しくなる',
    subject: '真鍮の経年変化',
    description:
      '触れるほどに色を深める真鍮。劣化ではなく成長として経年変化を捉えるとき、物との関係はどう変わるのか。金属加工の町工場と作り手の声から考える。',
    category: 'craft',
    format: 'article',
    tags: ['workshop'],
    writers: ['hayashi'],
    series: 'material',
  },
  {
    title: '修理できる家電は、なぜ少ないのか',
    subject: '修理しやすい家電のデザイン',
    description:
      'ねじで分解できる構造、交換できる部品、公開された修理マニュアル。修理のしやすさは、デザインの誠実さを映す鏡でもある。家電業界の現状と課題を整理する。',
    category: 'product',
    format: 'insight',
    tags: ['research', 'recycled'],
    writers: ['ishikawa'],
  },
  {
    title: '路地に開く住宅、通りに座る人',
    subject: '路地に開いた都市の住宅',
    description:
      '通りに面した縁側に、近所の人が腰を下ろしていく。閉じがちな都市の住宅を、路地に向けて開くという選択をした建築家と住まい手の暮らしを訪ねた。',
    category: 'architecture',
    format: 'report',
    tags: ['city', 'timber'],
    writers: ['kobayashi'],
    series: 'town',
  },
  {
    title: '組版者・久住颯さんに聞く、約物ひとつの重み',
    subject: '日本語組版の約物',
    description:
      '括弧や句読点の扱いひとつで、文章の表情は大きく変わる。三十年にわたり書籍の組版を手がけてきた久住颯さんに、日本語を組むことの奥深さを聞いた。',
    category: 'typography',
    format: 'interview',
    tags: ['typesetting', 'interview'],
    writers: ['fujii'],
    series: 'typesetters',
    person: { name: '久住颯', role: '組版者' },
  },
  {
    title: 'パッケージは、捨てられる瞬間までデザインする',
    subject: 'パッケージの素材削減',
    description:
      '店頭で商品を売るための道具であり、家に持ち帰られたあとも暮らしに残るパッケージ。素材を減らし、再利用しやすくするための最新の試みを紹介する。',
    category: 'graphic',
    format: 'article',
    tags: ['package', 'recycled'],
    writers: ['nakamura'],
  },
  {
    title: '間伐材と漁網　地域資源が素材に変わるとき',
    subject: '地域の未利用資源',
    description:
      'これまで使われてこなかった間伐材や廃漁網に光を当てるプロジェクトが各地で生まれている。素材の背景にある物語を、製品を通してどう伝えるのか。',
    category: 'sustainability',
    format: 'report',
    tags: ['recycled', 'workshop'],
    writers: ['matsumoto'],
  },
  {
    title: 'デザインへの投資は、経営にどう効くのか',
    subject: 'デザインへの投資と企業経営',
    description:
      'デザインへの継続的な投資は、ブランドへの信頼や顧客の定着にどう結びつくのか。国内外の調査を読み解きながら、デザインを経営の言葉で語る試みを考える。',
    category: 'product',
    format: 'insight',
    tags: ['research'],
    writers: ['mori'],
  },
  {
    title: 'ガラス作家・結城真帆さんの、影まで含めたかたち',
    subject: '吹きガラスの器',
    description:
      '吹きガラスの器に水を注ぐと、揺らぎのある影がテーブルに落ちる。ガラス作家の結城真帆さんに、光と影を含めて器をデザインする考え方を聞いた。',
    category: 'craft',
    format: 'interview',
    tags: ['workshop', 'interview'],
    writers: ['hayashi'],
    series: 'material',
    person: { name: '結城真帆', role: 'ガラス作家' },
  },
  {
    title: '見出しは、意味の切れ目で改行する',
    subject: '見出しの文字組み',
    description:
      '大きな文字では、字間の不揃いや不自然な改行が目立ちやすい。プロポーショナルな詰めと文節での改行という二つの工夫で、見出しはどこまで読みやすくなるのか。',
    category: 'typography',
    format: 'article',
    tags: ['typesetting', 'typeface'],
    writers: ['fujii'],
  },
  {
    title: '模型をつくり続ける設計事務所',
    subject: '建築模型によるスタディ',
    description:
      '精密なパースが簡単に描ける時代に、なぜ建築家は白い模型をつくり続けるのか。手で動かし、光にかざし、覗き込む。身体を通した設計の確認作業を追った。',
    category: 'architecture',
    format: 'article',
    tags: ['research'],
    writers: ['okada'],
  },
  {
    title: '「見せかけの環境配慮」を避けるために',
    subject: '環境配慮のコミュニケーション',
    description:
      '実態以上に環境に優しいと見せかける表現は、消費者の信頼を損なう。できていないことも含めて説明する、誠実なコミュニケーションのあり方を考える。',
    category: 'sustainability',
    format: 'insight',
    tags: ['research', 'package'],
    writers: ['matsumoto'],
  },
  {
    title: 'アートディレクター・羽鳥紗季さんに聞く、写真と文字のあいだ',
    subject: '写真とタイポグラフィの関係',
    description:
      '写真の余白に文字を置くのか、文字と写真を対等に並べるのか。その判断で誌面の温度は変わる。アートディレクターの羽鳥紗季さんに、誌面づくりの勘どころを聞いた。',
    category: 'graphic',
    format: 'interview',
    tags: ['interview', 'color'],
    writers: ['nakamura'],
    person: { name: '羽鳥紗季', role: 'アートディレクター' },
  },
  {
    title: '「家具と暮らしの百年」展レポート',
    subject: '家具の百年をたどる展覧会',
    description:
      '二十世紀初頭から現代まで、暮らしとともに変わってきた家具の姿をたどる展覧会。年代ではなく「素材」「構造」「使い手」の三章で構成された会場を歩いた。',
    category: 'product',
    format: 'report',
    tags: ['exhibition', 'furniture'],
    writers: ['okada', 'tanaka'],
  },
  {
    title: '画面で読む文字、紙で読む文字',
    subject: '画面表示のための書体',
    description:
      'ウェブフォントが当たり前になった今、書体デザイナーは多様な画面での見え方を想定しなければならない。紙と画面、それぞれに求められる文字の性質を比べる。',
    category: 'typography',
    format: 'insight',
    tags: ['typeface', 'research'],
    writers: ['fujii'],
  },
  {
    title: '駅前広場に「何もしない場所」をつくる',
    subject: '駅前広場の再整備',
    description:
      '用途を決めすぎない余白こそが、人々の居場所になる。地方都市の駅前広場の再整備で、計画しすぎないことを計画した設計チームの試みを報告する。',
    category: 'architecture',
    format: 'report',
    tags: ['city'],
    writers: ['kobayashi'],
    series: 'town',
  },
  {
    title: '鋳物の鍋を、軽くする',
    subject: '軽量化した鋳物の鍋',
    description:
      '重くて扱いにくいという鋳物のイメージを変えるため、職人とデザイナーが試作を重ねた。伝統技法の本質を守りながら使い勝手を更新していく開発の記録。',
    category: 'craft',
    format: 'article',
    tags: ['workshop'],
    writers: ['hayashi'],
    series: 'material',
  },
  {
    title: '生成AIは、デザイナーの判断をどう変えるか',
    subject: '生成AIとデザインの現場',
    description:
      'アイデアの初期段階で多くの案を比べられるようになった一方、何を選び、なぜ選ぶのかという判断の重みは増している。生成AI時代のデザイナーの役割を考える。',
    category: 'graphic',
    format: 'insight',
    tags: ['research'],
    writers: ['mori'],
  },
  {
    title: 'プロダクトデザイナー・真柴航さんの「粗い試作」のすすめ',
    subject: 'プロトタイピング',
    description:
      '紙や発泡材でつくる粗い試作でも、使い手の戸惑いは驚くほどはっきり見える。プロダクトデザイナーの真柴航さんに、早く間違えることの価値を聞いた。',
    category: 'product',
    format: 'interview',
    tags: ['interview', 'research'],
    writers: ['ishikawa'],
    person: { name: '真柴航', role: 'プロダクトデザイナー' },
  },
  {
    title: '行間は「読む速さ」をデザインする',
    subject: '本文の行間と字間',
    description:
      '行間が狭すぎれば次の行を見失い、広すぎれば文章のまとまりが崩れる。読者が意識しないまま読書体験を左右している、行間と字間の設計を考える。',
    category: 'typography',
    format: 'article',
    tags: ['typesetting'],
    writers: ['fujii'],
  },
  {
    title: 'カーボンフットプリントを、デザインの判断材料にする',
    subject: '製品のカーボンフットプリント算定',
    description:
      '素材の選択や輸送距離の違いが、数字として比べられるようになった。感覚に頼っていた判断に根拠を与える、カーボンフットプリント算定の実践と限界を探る。',
    category: 'sustainability',
    format: 'insight',
    tags: ['research', 'recycled'],
    writers: ['matsumoto'],
  },
  {
    title: 'ロゴを変えることは、組織を見つめ直すこと',
    subject: 'コーポレートアイデンティティの刷新',
    description:
      'ロゴのリニューアルは、形の好みの議論から始まり、やがて「私たちは何者か」という問いに行き着く。アイデンティティデザインの現場で起きていることを追う。',
    category: 'graphic',
    format: 'article',
    tags: ['color'],
    writers: ['nakamura'],
  },
  {
    title: '書体デザイナー・吉良朋さんに聞く、欧文と和文のあいだ',
    subject: '欧文書体と和文書体の関係',
    description:
      '欧文書体の設計から出発し、和文との組み合わせを研究してきた吉良朋さん。二つの文字体系のあいだに立つデザイナーに、混植の未来について聞いた。',
    category: 'typography',
    format: 'interview',
    tags: ['typeface', 'interview'],
    writers: ['fujii'],
    series: 'typesetters',
    person: { name: '吉良朋', role: '書体デザイナー' },
  },
  {
    title: '改修という創造　既存の柱が問いかけること',
    subject: '既存建物の改修',
    description:
      'なぜこの柱はここにあるのか。改修の現場では、既存の建物が設計者に問いを投げかけてくる。若い建築家ほど改修を積極的に引き受ける理由を探った。',
    category: 'architecture',
    format: 'insight',
    tags: ['timber', 'city'],
    writers: ['kobayashi'],
  },
  {
    title: '産地の分業を、つなぎ直す',
    subject: '陶磁器産地の分業',
    description:
      '土を練る人、形をつくる人、釉薬をかける人、窯を焚く人。精緻な分業で成り立つ産地のものづくりが揺らいでいる。その連携をつなぎ直す取り組みを取材した。',
    category: 'craft',
    format: 'report',
    tags: ['workshop'],
    writers: ['hayashi'],
  },
  {
    title: '長く使えることが、いちばんの環境対策',
    subject: '長く使える製品のデザイン',
    description:
      '流行に左右されない形、丈夫な構造、修理の仕組み。一つの製品が十年使われれば、資源とエネルギーの消費は大きく減る。長く使うためのデザインを考える。',
    category: 'sustainability',
    format: 'article',
    tags: ['furniture', 'recycled'],
    writers: ['matsumoto'],
  },
  {
    title: '「グラフィックの実験室」展レポート',
    subject: 'グラフィックデザインの展覧会',
    description:
      'スケッチ、走り書きのメモ、消された線。完成したポスターの傍らに、デザイナーの迷いの痕跡が並ぶ展覧会を訪ねた。思考の揺れから見えてくるものとは。',
    category: 'graphic',
    format: 'report',
    tags: ['exhibition', 'color'],
    writers: ['okada'],
  },
  {
    title: '家電を、暮らしの風景に溶け込ませる',
    subject: '家電のデザイン',
    description:
      '新しい機能をどこまで表に出し、どこまで隠すのか。多機能を誇示するよりも、静かに暮らしに溶け込むことを選ぶ家電が増えている。その背景を読み解く。',
    category: 'product',
    format: 'article',
    tags: ['research', 'lighting'],
    writers: ['ishikawa'],
  },
  {
    title: '活版印刷所を営む日下部玲さんに聞く、一本の活字から',
    subject: '活版印刷から受け継がれた組版の知恵',
    description:
      '金属の活字を一本ずつ拾い、込め物で字間を整える。活版印刷所を営む日下部玲さんに、手で組む経験が現在のデジタル組版にどう生きているのかを聞いた。',
    category: 'typography',
    format: 'interview',
    tags: ['typesetting', 'workshop', 'interview'],
    writers: ['fujii'],
    series: 'typesetters',
    person: { name: '日下部玲', role: '活版印刷所主宰' },
  },
  {
    title: '高架下に生まれた、小さな仕事場',
    subject: '高架下の再生',
    description:
      '鉄道の高架下に、小さな工房や事務所が並ぶ一角が生まれた。騒音や暗さといった条件を逆手に取り、働く場所として再生した設計の工夫を報告する。',
    category: 'architecture',
    format: 'report',
    tags: ['city', 'workshop'],
    writers: ['kobayashi'],
    series: 'town',
  },
  {
    title: 'サステナビリティ・コンサルタント都築蓮さんに聞く、制約が生む美しさ',
    subject: '循環型の素材戦略',
    description:
      'サステナブルなデザインは、我慢や節約のイメージで語られがちだ。企業の素材戦略を支援する都築蓮さんに、制約から新しい豊かさを引き出す方法を聞いた。',
    category: 'sustainability',
    format: 'interview',
    tags: ['interview', 'recycled'],
    writers: ['matsumoto'],
    person: { name: '都築蓮', role: 'サステナビリティ・コンサルタント' },
  },
  {
    title: '色を選ぶという、論理的な作業',
    subject: '色彩設計',
    description:
      '印刷の再現性、画面での見え方、色覚の多様性、ブランドの歴史。数多くの制約の中から一つの色を選び取るプロセスは、感覚よりも論理に近い。その手順を分解する。',
    category: 'graphic',
    format: 'insight',
    tags: ['color', 'research'],
    writers: ['nakamura'],
  },
  {
    title: '家具デザイナー・古閑創さんと考える、百年使えるテーブル',
    subject: '長く使われるテーブル',
    description:
      '何十年も家族の食卓を支えるテーブルには、どんな条件が必要なのか。無垢材の家具を手がけてきた古閑創さんに、時間に耐えるデザインについて聞いた。',
    category: 'product',
    format: 'interview',
    tags: ['furniture', 'interview'],
    writers: ['ishikawa'],
    person: { name: '古閑創', role: '家具デザイナー' },
  },
  {
    title: '漆器を食洗機で洗える日',
    subject: '伝統技法の現代化',
    description:
      '食洗機に対応する漆器や、電子レンジで使える陶磁器が登場している。伝統的な技法を現代の暮らしに合わせる試みは、工芸の本質を損なうのか、それとも守るのか。',
    category: 'craft',
    format: 'insight',
    tags: ['urushi', 'workshop'],
    writers: ['hayashi'],
    series: 'material',
  },
  {
    title: '窓の高さを、数センチ単位で決める',
    subject: '住宅の開口部の設計',
    description:
      '座ったときの視線、隣家との距離、夕方の西日。住宅の窓には暮らしの細部が凝縮されている。開口部の設計を手がかりに、住まいのつくり方を考える。',
    category: 'architecture',
    format: 'article',
    tags: ['timber'],
    writers: ['kobayashi'],
  },
  {
    title: '各国のデザイン政策を比べてみる',
    subject: '海外のデザイン政策',
    description:
      '公共調達にデザインの評価を組み込む国、地域産業の柱にデザインを据える国。各国のデザイン政策を比較し、日本の取り組みを相対化してみる。',
    category: 'product',
    format: 'insight',
    tags: ['research'],
    writers: ['mori'],
  },
  {
    title: '展覧会レポート「文字の見本帳」展',
    subject: '書体見本帳の展覧会',
    description:
      '印刷所や書体メーカーがつくってきた見本帳を集めた展覧会。紙面に並ぶ文字の列から、時代ごとに移り変わってきた読みやすさの基準が見えてくる。',
    category: 'typography',
    format: 'report',
    tags: ['exhibition', 'typeface'],
    writers: ['okada'],
  },
  {
    title: 'デザイン教育の現場で起きていること',
    subject: '美術大学のデザイン教育',
    description:
      '異なる分野の学生が協働する授業や、社会課題をテーマにしたプロジェクトが増えている。専門性と協働の力をどう両立させるのか。教育現場の変化を探る。',
    category: 'graphic',
    format: 'insight',
    tags: ['research'],
    writers: ['mori'],
  },
  {
    title: '建築家・仁科透子さんに聞く、施主の言葉の奥にあるもの',
    subject: '住宅設計における施主との対話',
    description:
      '「明るいリビングがほしい」という要望の背後には、どんな願いが隠れているのか。住宅を中心に手がける建築家の仁科透子さんに、対話から設計を始める方法を聞いた。',
    category: 'architecture',
    format: 'interview',
    tags: ['interview', 'timber'],
    writers: ['kobayashi'],
    person: { name: '仁科透子', role: '建築家' },
  },
  {
    title: '量産の現場で、理想の形に近づく',
    subject: '量産品の設計と製造',
    description:
      '金型の抜き勾配、樹脂の収縮率、組み立ての公差。図面上の美しい形を工場で実現するために、デザイナーは製造の知識をどう生かしているのか。',
    category: 'product',
    format: 'article',
    tags: ['research'],
    writers: ['ishikawa'],
  },
  {
    title: '「循環する家具」展レポート',
    subject: '循環を前提に設計された家具',
    description:
      '使い終えた家具を回収し、部材を再利用して新しい家具に生まれ変わらせる。循環を前提に設計された家具を集めた展覧会は、会場構成そのものも再利用を意識していた。',
    category: 'sustainability',
    format: 'report',
    tags: ['exhibition', 'furniture'],
    writers: ['okada'],
  },
  {
    title: '校正者・諏訪多恵さんに聞く、読むことを支える仕事',
    subject: '書籍の校正',
    description:
      '誤字を見つけるだけが校正ではない。表記の揺れ、行末の約物、文字の並びのリズムまで目を配る。校正者の諏訪多恵さんに、読むことを支える仕事の実際を聞いた。',
    category: 'typography',
    format: 'interview',
    tags: ['typesetting', 'interview'],
    writers: ['fujii'],
    series: 'typesetters',
    person: { name: '諏訪多恵', role: '校正者' },
  },
  {
    title: '町工場の知恵を、デザインに生かす',
    subject: '金属加工の町工場',
    description:
      '素材のくせを読み、工具の当て方を変え、指先で仕上げを確かめる。図面に書き切れない町工場の知恵に、デザイナーはどう耳を傾ければよいのか。',
    category: 'craft',
    format: 'report',
    tags: ['workshop'],
    writers: ['hayashi'],
  },
  {
    title: 'グラフィックデザイナー・樋口朔也さんに聞く、削ることの勇気',
    subject: '要素を削るグラフィックデザイン',
    description:
      'ポスター、書籍、展覧会のアイデンティティを手がける樋口朔也さん。要素を足すよりも引くことに時間をかけるという、その仕事の進め方を聞いた。',
    category: 'graphic',
    format: 'interview',
    tags: ['interview', 'book-design'],
    writers: ['nakamura'],
    person: { name: '樋口朔也', role: 'グラフィックデザイナー' },
  },
  {
    title: 'デザインの成果を、どう測るか',
    subject: 'デザインの成果指標',
    description:
      '売上や認知度だけでなく、使い手の満足や社会への影響をどう捉えるか。測りにくいものを測ろうとする試みは、デザインの意義を問い直す機会にもなる。',
    category: 'product',
    format: 'insight',
    tags: ['research'],
    writers: ['mori'],
  },
  {
    title: '新しい担い手が、産地に集まり始めた',
    subject: '産地の後継者育成',
    description:
      '後継者不足に悩む産地に、外から移り住んで技術を学ぶ若者が増えている。工房見学や短期研修を受け入れる仕組みは、技術継承のためのデザインでもある。',
    category: 'craft',
    format: 'insight',
    tags: ['workshop', 'urushi'],
    writers: ['hayashi'],
  },
  {
    title: '打放しコンクリートの表情は、現場で決まる',
    subject: 'コンクリート打放しの仕上げ',
    description:
      '型枠の精度、打設の段取り、養生の期間。コンクリート打放しの質感は、設計者と施工者の粘り強い対話から生まれる。ある美術館の建設現場を追った。',
    category: 'architecture',
    format: 'article',
    tags: ['city'],
    writers: ['kobayashi'],
  },
  {
    title: '日用品に潜む工夫に、目を留める',
    subject: '日用品のデザイン',
    description:
      '毎日使う道具、通勤で歩く道、手に取る本。私たちの生活は無数のデザインに囲まれている。量販店の棚に並ぶ何気ない日用品に潜む工夫を探した。',
    category: 'product',
    format: 'article',
    tags: ['furniture', 'package'],
    writers: ['tanaka'],
  },
  {
    title: '2026年のデザインを振り返る',
    subject: 'この一年のデザインの動き',
    description:
      '循環型のものづくり、生成AI、地域資源の再評価。この一年、デザインの現場ではどんな変化が起きたのか。編集部が取材を振り返りながら、次の一年を展望する。',
    category: 'sustainability',
    format: 'insight',
    tags: ['research', 'recycled'],
    writers: ['tanaka', 'mori'],
  },
];

const pad3 = (n: number) => String(n).padStart(3, '0');
export const postId = (n: number) => `post-${pad3(n)}`;

const DAY = 86_400_000;
const FIRST_POST = Date.UTC(2025, 5, 3); // 2025-06-03 09:00 JST
const LAST_POST = Date.UTC(2026, 10, 20); // 2026-11-20 09:00 JST

/** Distinct days spread evenly from June 2025 to November 2026, in the morning (JST). */
function postPublishedAt(index: number, total: number): string {
  const days = Math.round(((LAST_POST - FIRST_POST) / DAY) * (index / (total - 1)));
  const minutes = (index * 37) % 180; // 09:00–11:59 JST
  return new Date(FIRST_POST + days * DAY + minutes * 60_000).toISOString();
}

/** Covers that suit each category, in the order its posts take them. */
const CATEGORY_COVERS: Record<TopicKey, readonly number[]> = {
  architecture: [1, 3, 9, 11, 14, 20, 24, 32, 17],
  graphic: [4, 12, 15, 8, 18, 23, 26, 31, 30, 29],
  product: [5, 13, 22, 28, 3, 8, 11, 20, 30],
  typography: [2, 10, 21, 29, 8, 13, 23, 31],
  sustainability: [6, 14, 16, 19, 27, 21, 17, 25],
  craft: [7, 16, 12, 19, 25, 15, 28, 5],
};

/**
 * How close the same cover may come: within this many posts in publication order (a page of
 * cards, the home page's lists), and within this many posts of the same category, series,
 * format or tag (the lists of a feature, a series, インサイト, a tag).
 */
const COVER_GAP_ALL = 8;
const COVER_GAP_GROUP = 3;

/**
 * Each post's cover, in publication order: the next cover of its category that no neighbour in
 * any listing already shows, so that the same picture never sits side by side.
 */
function assignCovers(posts: readonly PostSpec[]): number[] {
  const chosen: number[] = [];
  const turn = new Map<TopicKey, number>();
  const everyCover = Array.from({ length: DEMO_COVER_COUNT }, (_, i) => i + 1);
  posts.forEach((spec, index) => {
    const taken = new Set(chosen.slice(Math.max(0, index - COVER_GAP_ALL)));
    const sameGroup = [
      (p: PostSpec) => p.category === spec.category,
      (p: PostSpec) => p.format === spec.format,
      (p: PostSpec) => spec.series !== undefined && p.series === spec.series,
      ...spec.tags.map((tag) => (p: PostSpec) => p.tags.includes(tag)),
    ];
    for (const inGroup of sameGroup) {
      const earlier = chosen.filter((_, j) => j < index && inGroup(posts[j]!));
      for (const cover of earlier.slice(-COVER_GAP_GROUP)) taken.add(cover);
    }
    const own = CATEGORY_COVERS[spec.category];
    const start = turn.get(spec.category) ?? 0;
    const rotated = own.map((_, k) => own[(start + k) % own.length]!);
    const cover = [...rotated, ...everyCover].find((n) => !taken.has(n));
    if (cover === undefined) throw new Error(`No free cover for post ${index + 1}`);
    turn.set(spec.category, start + 1);
    chosen.push(cover);
  });
  return chosen;
}

function buildPosts(): DemoItem[] {
  const seriesCount = new Map<SeriesKey, number>();
  const seriesPrevious = new Map<SeriesKey, string>();
  const byCategory = new Map<TopicKey, string[]>();
  const covers = assignCovers(POSTS);

  return POSTS.map((spec, index) => {
    const id = postId(index + 1);
    const coverNumber = covers[index]!;
    // The figure in the body: the picture after the cover in its category's order.
    const own = CATEGORY_COVERS[spec.category];
    const figure = demoCover(own[(own.indexOf(coverNumber) + 1 + own.length) % own.length]!);

    const body: Record<string, unknown> = {
      title: spec.title,
      description: spec.description,
      coverImage: demoCover(coverNumber),
      body: composeBody({
        seed: index + 1,
        topic: spec.category,
        format: spec.format,
        subject: spec.subject,
        person: spec.person,
        exhibition: spec.tags.includes('exhibition'),
        figure,
      }),
      isPublicPreview: index % 6 === 1,
      format: [spec.format],
      category: categoryId(spec.category),
      tags: spec.tags.map(tagId),
      writers: spec.writers.map(writerId),
      publishedAt: postPublishedAt(index, POSTS.length),
    };

    const related: string[] = [];
    if (spec.series) {
      const order = (seriesCount.get(spec.series) ?? 0) + 1;
      seriesCount.set(spec.series, order);
      body.series = seriesId(spec.series);
      body.seriesOrder = order;
      const previous = seriesPrevious.get(spec.series);
      if (previous) related.push(previous);
      seriesPrevious.set(spec.series, id);
    }
    const sameCategory = byCategory.get(spec.category) ?? [];
    if (index % 3 === 0 && sameCategory.length >= 2) {
      related.push(...sameCategory.slice(-2).reverse());
    }
    if (related.length) body.relatedPosts = [...new Set(related)];
    byCategory.set(spec.category, [...sameCategory, id]);
    return { id, body };
  });
}

// ---------------------------------------------------------------------------------------------
// Audio (podcast) and movies

type Line = [speaker: WriterKey, text: string];

/** The first two lines are the lead: the members' divider follows them. */
const transcript = (lines: readonly Line[]) =>
  lines
    .map(
      ([speaker, text], i) =>
        `${i === 2 ? MEMBERS_DIVIDER.html : ''}<p><strong>${WRITERS[speaker].name.split(' ')[0]}</strong>\u3000${text}</p>`,
    )
    .join('');

/**
 * 「デザインの余白」, a short talk every two months. Each episode's file is its transcript
 * spoken: change a line here and make the file again (scripts/demo-media/speak.ts).
 */
const AUDIOS: readonly {
  title: string;
  description: string;
  cover: number;
  writers: WriterKey[];
  lines: readonly Line[];
}[] = [
  {
    title: 'デザインの余白 #01　建築の十年後を語る',
    description:
      '建築ライターの小林亮をゲストに、竣工後の建物がどう使われ、どう変わっていくのかを語ります。写真には写らない建築の価値とは。',
    cover: 9,
    writers: ['tanaka', 'kobayashi'],
    lines: [
      [
        'tanaka',
        'こんにちは、編集長の田中です。「デザインの余白」第一回は、建築ライターの小林亮さんをお迎えしました。よろしくお願いします。',
      ],
      [
        'kobayashi',
        'よろしくお願いします。最初の回に呼んでいただけて光栄です。今日は竣工写真には写らない、建築のその後の話をしたいと思っています。',
      ],
      ['tanaka', '取材では、完成から何年も経った建物を訪ねることが多いそうですね。'],
      [
        'kobayashi',
        'はい。十年経つと、設計者の意図と使い手の工夫が混ざり合って、建物が別の表情を見せ始めるんです。勝手に置かれた鉢植えや手書きの貼り紙に、その建物がどれだけ愛されているかが表れます。',
      ],
      ['tanaka', 'そうした変化を、最初から受け止められるように設計することはできるのでしょうか。'],
      [
        'kobayashi',
        'すべてを決めきらないことだと思います。棚を付け足せる壁、用途を変えられる部屋。余白を残す勇気が、建物を長生きさせるのではないでしょうか。',
      ],
      ['tanaka', '「余白」という言葉が出たところで、今日はここまで。ありがとうございました。'],
    ],
  },
  {
    title: 'デザインの余白 #02　書体が声になるとき',
    description:
      'タイポグラフィ研究者の藤井玲奈と、書体選びが文章の印象をどう変えるのかを話します。明朝体とゴシック体の「語り口」の違いとは。',
    cover: 10,
    writers: ['tanaka', 'fujii'],
    lines: [
      [
        'tanaka',
        '「デザインの余白」第二回のゲストは、連載「文字を組む人たち」でおなじみの藤井玲奈さんです。',
      ],
      [
        'fujii',
        'よろしくお願いします。今日は、書体は文章の「声」だという話をしようと思って来ました。',
      ],
      ['tanaka', '声、ですか。'],
      [
        'fujii',
        '同じ文章でも、明朝体で組むと落ち着いた語り口に、ゴシック体で組むと明快な語り口に聞こえるんです。読者は意識していなくても、文字の形から話し手の人柄のようなものを受け取っています。',
      ],
      ['tanaka', '編集の現場でも、書体を替えただけで原稿の印象が変わることはよくあります。'],
      [
        'fujii',
        'だからこそ、書体は内容を読んでから選んでほしいですね。見た目の好みだけで選ぶと、文章と声がちぐはぐになってしまいます。',
      ],
      ['tanaka', '次に本を手に取るときは、その声に耳を澄ませてみます。ありがとうございました。'],
    ],
  },
  {
    title: 'デザインの余白 #03　素材の循環をめぐって',
    description:
      'サステナビリティ・ジャーナリストの松本葵と、再生素材や部材の再利用の現場で見えてきた課題と可能性を語ります。',
    cover: 27,
    writers: ['mori', 'matsumoto'],
    lines: [
      [
        'mori',
        '「デザインの余白」、編集部の森です。今回は、サステナビリティをテーマに取材を続けている松本葵さんにお越しいただきました。',
      ],
      [
        'matsumoto',
        'よろしくお願いします。最近は、再生素材を使っていること自体が評価される空気がありますが、そこに少し違和感を持っています。',
      ],
      ['mori', 'どういうことでしょう。'],
      [
        'matsumoto',
        '遠くから素材を運んだり、加工に多くのエネルギーを使ったりすれば、かえって負荷が増えることもあります。全体を数字で見て判断することが大切です。',
      ],
      ['mori', 'できていないことも含めて伝える、という姿勢が求められていますね。'],
      [
        'matsumoto',
        'そうなんです。誠実に説明している企業ほど、結果的に信頼を得ています。デザイナーにできることは、まだたくさんあると思います。',
      ],
      ['mori', '数字と誠実さ、どちらも手放さずにいたいですね。ありがとうございました。'],
    ],
  },
  {
    title: 'デザインの余白 #04　工芸の産地を歩く',
    description:
      '工芸ライターの林恭平が、漆やガラス、鋳物の産地で出会った作り手たちの話を紹介します。産地の分業と、新しい担い手について。',
    cover: 13,
    writers: ['tanaka', 'hayashi'],
    lines: [
      [
        'tanaka',
        '「デザインの余白」第四回は、連載「素材の現在地」を担当している林恭平さんと、工芸の産地の話をします。',
      ],
      [
        'hayashi',
        'よろしくお願いします。この一年で十を超える産地を訪ねましたが、どこでも分業の精緻さに驚かされます。',
      ],
      ['tanaka', '一つの器ができるまでに、何人もの職人が関わっているんですよね。'],
      [
        'hayashi',
        'はい。土を練る人、形をつくる人、窯を焚く人。どこか一つが欠けると、産地全体が成り立たなくなります。だからこそ、新しい担い手をどう迎えるかが切実な課題になっています。',
      ],
      ['tanaka', '明るい兆しはありますか。'],
      [
        'hayashi',
        '外から移り住んで技術を学ぶ若い人が、少しずつ増えています。見学や短期研修を受け入れる工房が、その入口になっているようです。',
      ],
      [
        'tanaka',
        '産地の入口をどうつくるか。これからも追いかけていきましょう。ありがとうございました。',
      ],
    ],
  },
  {
    title: 'デザインの余白 #05　ポスターと街の数秒',
    description:
      'グラフィックデザイナーの中村沙織と、街の中で数秒しか見られないポスターのデザインについて話します。情報を削る判断の基準とは。',
    cover: 30,
    writers: ['mori', 'nakamura'],
    lines: [
      [
        'mori',
        '「デザインの余白」、今回のゲストは、グラフィックデザイナーで文筆家の中村沙織さんです。',
      ],
      [
        'nakamura',
        'よろしくお願いします。今日はポスターの話をしましょう。街の中で、ポスターが見られる時間はほんの数秒なんです。',
      ],
      ['mori', 'その数秒で何を伝えるか、ということですね。'],
      [
        'nakamura',
        'ええ。伝えたいことは山ほどありますが、全部載せると何も伝わりません。何を載せないかを決めるのに、いちばん時間を使います。',
      ],
      ['mori', '削る判断の基準はどこにあるのでしょう。'],
      [
        'nakamura',
        '見た人に次の行動を起こしてもらえるかどうか、です。会場の名前と日付が目に入れば、あとは調べてもらえます。その信頼関係を前提にデザインしています。',
      ],
      ['mori', '載せない勇気と、見る人への信頼。今日はありがとうございました。'],
    ],
  },
  {
    title: 'デザインの余白 #06　修理できる道具の話',
    description:
      'プロダクトデザイン研究者の石川拓海と、修理しやすい製品のデザインについて考えます。長く使えることは、どんな価値を生むのでしょうか。',
    cover: 22,
    writers: ['tanaka', 'ishikawa'],
    lines: [
      [
        'tanaka',
        '「デザインの余白」第六回のゲストは、プロダクトデザイン研究者の石川拓海さんです。',
      ],
      [
        'ishikawa',
        'よろしくお願いします。今日は修理の話をしたいと思います。修理できることは、これからの製品に欠かせない性能だと考えています。',
      ],
      ['tanaka', '性能、という言い方が面白いですね。'],
      [
        'ishikawa',
        'ねじで開けられる、部品が手に入る、手順が公開されている。どれも設計の段階で決まることです。あとから付け足すことはできません。',
      ],
      ['tanaka', '使い手の側にも変化が必要かもしれません。'],
      [
        'ishikawa',
        'そうですね。直しながら使うことを楽しむ文化が育てば、メーカーの姿勢も変わっていくはずです。',
      ],
      ['tanaka', '直しながら使う。その言葉を持ち帰りたいと思います。ありがとうございました。'],
    ],
  },
];

/** Short silent animations, each with its own file (demo-media.ts). */
const MOVIES: readonly {
  title: string;
  description: string;
  cover: number;
  writers: WriterKey[];
  isPublicPreview?: boolean;
}[] = [
  {
    title: '窓辺の光の一日',
    description:
      '住宅の窓から差し込む光は、朝から夕方までにどう移ろうのか。床に落ちる光のかたちと色の変化を、短いアニメーションにまとめました。開口部の設計を考えるための映像資料です。',
    cover: 24,
    writers: ['kobayashi', 'okada'],
    isPublicPreview: true,
  },
  {
    title: '約物と行間　本文の組み方を比べる',
    description:
      'ベタ組みから約物の詰め、行間の調整まで。同じ文章を三つの段階で組み直し、読みやすさがどこで変わるのかを映像で確かめます。',
    cover: 29,
    writers: ['fujii'],
  },
  {
    title: '漆を塗り重ねる',
    description:
      '木地を整え、下地、中塗り、上塗りへ。塗っては研ぐ漆の工程を、断面のアニメーションで追いました。連載「素材の現在地」の取材をもとに制作しています。',
    cover: 28,
    writers: ['hayashi'],
  },
  {
    title: '再生素材ができるまで',
    description:
      '回収された製品が、洗浄、粉砕、成形を経て新しい素材に生まれ変わるまで。素材研究所で取材した四つの工程を、短い映像にまとめました。',
    cover: 31,
    writers: ['matsumoto'],
  },
  {
    title: 'ボリュームを探る　模型スタディの記録',
    description:
      '三つの棟をどう配置すれば、通りに開いた建物になるのか。ある設計事務所が模型で比べた配置案の変遷を、アニメーションで再現しました。',
    cover: 20,
    writers: ['kobayashi', 'okada'],
  },
  {
    title: '情報を削るポスター',
    description:
      '展覧会のポスターから要素を一つずつ外し、最後に何が残るのかを確かめる映像です。記事「余白を残すポスター、情報を削る勇気」の考え方を、実際の手順で見せます。',
    cover: 23,
    writers: ['nakamura'],
  },
];

function monthly(start: number, index: number, stepDays: number): string {
  return new Date(start + index * stepDays * DAY).toISOString();
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function buildAudios(): DemoItem[] {
  return AUDIOS.map((a, i) => {
    const file = `audio-${pad2(i + 1)}.mp3`;
    return {
      id: `audio-${pad3(i + 1)}`,
      body: {
        title: a.title,
        description: a.description,
        coverImage: demoCover(a.cover),
        audioFile: demoFile(file),
        duration: demoSeconds(file),
        transcript: transcript(a.lines),
        isPublicPreview: i === 0,
        writers: a.writers.map(writerId),
        publishedAt: monthly(Date.UTC(2025, 8, 12, 1), i, 61),
      },
    };
  });
}

function buildMovies(): DemoItem[] {
  return MOVIES.map((m, i) => {
    const file = `movie-${pad2(i + 1)}.webm`;
    return {
      id: `movie-${pad3(i + 1)}`,
      body: {
        title: m.title,
        description: m.description,
        coverImage: demoCover(m.cover),
        videoFile: demoFile(file),
        duration: demoSeconds(file),
        isPublicPreview: m.isPublicPreview === true,
        writers: m.writers.map(writerId),
        publishedAt: monthly(Date.UTC(2025, 9, 20, 1), i, 67),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Connect (members' community pages)

/** Applications and questions go through the contact form, which staff read (/admin/mail). */
const CONTACT_FORM = '<a href="/contact">お問い合わせフォーム</a>';

const CONNECT: readonly {
  id: string;
  title: string;
  description: string;
  cover: number;
  publishedAt: string;
  body: string;
}[] = [
  {
    id: 'connect-portfolio-review',
    title: 'ポートフォリオレビュー 2027 春',
    description:
      '第一線で活躍するデザイナーが、会員の皆さんのポートフォリオに一対一で助言します。就職や転職、独立を考えている方におすすめです。',
    cover: 12,
    publishedAt: '2026-11-16T01:00:00.000Z',
    body: [
      '<p>年に二回開いている会員向けのポートフォリオレビューを、今春も編集部のスタジオで開催します。建築、グラフィック、プロダクトの各分野から、現役のデザイナーがレビュアーとして参加します。</p>',
      '<h2>開催概要</h2>',
      '<ul><li>日時：2027年3月13日（土）13:00〜18:00</li><li>会場：AXIS Membership のスタジオ（東京都港区。詳しい所在地は、参加が決まった方にお知らせします）</li><li>定員：24名（応募多数の場合は抽選）</li><li>参加費：無料</li></ul>',
      '<h2>当日の流れ</h2>',
      '<p>お一人につき二名のレビュアーと、それぞれ25分ずつお話しいただきます。作品そのものへの講評だけでなく、見せ方や構成についての助言も行います。紙のポートフォリオ、タブレットのどちらでも構いません。</p>',
      '<h2>お申し込み</h2>',
      `<p>2027年2月20日（土）までに、${CONTACT_FORM}からお申し込みください。お問い合わせの種類は「その他」を選び、本文に「ポートフォリオレビュー参加希望」と、ご専門の分野（建築・グラフィック・プロダクト）をお書き添えください。抽選の結果は、2月下旬に編集部からメールでお知らせします。</p>`,
    ].join(''),
  },
  {
    id: 'connect-reading-club',
    title: 'デザインの本を読む会',
    description:
      '毎月一冊、デザインにまつわる本を選んで感想を語り合うオンラインの読書会です。本を読み切れていなくても、気軽にご参加ください。',
    cover: 2,
    publishedAt: '2026-11-05T01:00:00.000Z',
    body: [
      '<p>月に一度、平日の夜にオンラインで開いている読書会です。編集部が選んだ一冊について、ファシリテーターの進行で語り合います。</p>',
      '<h2>次回の予定</h2>',
      '<ul><li>日時：2026年12月9日（水）19:30〜21:00</li><li>場所：オンライン（ビデオ会議）</li><li>参加費：無料</li></ul>',
      '<h2>進め方</h2>',
      '<ol><li>ファシリテーターが本の概要を10分ほどで紹介します</li><li>少人数のグループに分かれて感想を話します</li><li>最後に全体で、印象に残った話を共有します</li></ol>',
      '<h2>参加のしかた</h2>',
      `<p>開催日の前日までに、${CONTACT_FORM}からお申し込みください。お問い合わせの種類は「その他」を選び、本文に「読書会参加希望」とお書きください。参加用のURLと課題の本を、編集部からメールでお知らせします。カメラはオフでも構いません。途中参加、途中退出も自由です。</p>`,
      '<blockquote><p>「同じ本を読んでも、人によって線を引く場所がまったく違う。それがいちばん面白い」（参加者の声）</p></blockquote>',
    ].join(''),
  },
  {
    id: 'connect-studio-visit',
    title: '会員限定スタジオ見学会',
    description:
      'パートナー企業の設計事務所や工房を訪ね、普段は見ることのできない仕事の現場を見学します。少人数制で、作り手と直接話せる機会です。',
    cover: 3,
    publishedAt: '2026-10-28T01:00:00.000Z',
    body: [
      '<p>記事で紹介した作り手の仕事場を、会員の皆さんと一緒に訪ねる見学会です。毎回8名ほどの少人数で、作り手の話をじっくり聞くことができます。</p>',
      '<h2>これからの予定</h2>',
      '<ul><li>2027年1月23日（土）：ソラネ建築設計事務所（東京都渋谷区）模型室と資料庫の見学</li><li>2027年2月27日（土）：モクメ家具製作所（岐阜県高山市）工房見学と木工体験</li><li>2027年3月20日（土）：株式会社カサネ素材研究所（神奈川県川崎市）再生素材の試作室の見学</li></ul>',
      '<h2>お申し込み</h2>',
      `<p>各回とも先着順です。${CONTACT_FORM}でお問い合わせの種類に「その他」を選び、本文に参加を希望する回（例：「1月23日 ソラネ建築設計事務所」）をお書きください。参加が決まった方には、集合場所と時間を編集部からメールでお知らせします。キャンセルは、開催の3日前までに同じフォームからご連絡ください。</p>`,
      '<h2>参加にあたって</h2>',
      '<p>見学先の仕事の妨げにならないよう、撮影やSNSへの投稿は当日の案内に従ってください。工房では動きやすい服装と、つま先の覆われた靴でお越しください。</p>',
    ].join(''),
  },
  {
    id: 'connect-guidelines',
    title: 'コネクトの使い方とお願い',
    description:
      '会員同士が安心して交流できるように、コネクトの使い方と、参加にあたってのお願いをまとめました。はじめての方はご一読ください。',
    cover: 17,
    publishedAt: '2026-01-15T01:00:00.000Z',
    body: [
      '<p>コネクトは、AXIS Membership の会員の皆さんが、イベントや勉強会を通じて交流するための場所です。無料会員を含め、ログインしている会員の方なら、どのページも全文をお読みいただけます。</p>',
      '<h2>できること</h2>',
      '<ul><li>ポートフォリオレビューや見学会など、会員向けイベントの案内を読み、参加を申し込む</li><li>オンライン読書会の予定を確かめて参加する</li><li>取り上げてほしいテーマやイベントを編集部に提案する</li></ul>',
      '<h2>申し込みと提案の方法</h2>',
      `<p>イベントへのお申し込みも、テーマのご提案も、${CONTACT_FORM}で受け付けています。お問い合わせの種類は「その他」を選び、本文にイベントの名前やご提案の内容をお書きください。編集部からメールでお返事します。</p>`,
      '<h2>参加にあたってのお願い</h2>',
      '<p>ほかの参加者の作品や発言を、本人の許可なく外部に公開しないでください。営業や勧誘を目的とした参加はご遠慮いただいています。互いの仕事に敬意を持って接していただけるよう、ご協力をお願いします。</p>',
    ].join(''),
  },
];

/** The members' divider after the first paragraph: that paragraph is the lead. */
const withDivider = (body: string) => body.replace('</p>', `</p>${MEMBERS_DIVIDER.html}`);

function buildConnect(): DemoItem[] {
  return CONNECT.map((c) => ({
    id: c.id,
    body: {
      title: c.title,
      description: c.description,
      coverImage: demoCover(c.cover),
      body: withDivider(c.body),
      publishedAt: c.publishedAt,
    },
  }));
}

// ---------------------------------------------------------------------------------------------
// Partners and jobs (all fictional companies; web addresses on example.com)

const PARTNERS = {
  sorane: {
    name: 'ソラネ建築設計事務所',
    description:
      '住宅、図書館、地域の集会所などを手がける建築設計事務所。既存建物の改修と、地域の木材を使った木造建築を得意とする。所員は十五名。',
    logo: 'logo-01.png',
  },
  lumeo: {
    name: '株式会社ルメオ照明',
    description:
      '住宅と商業空間のための照明器具を開発・製造するメーカー。自社工場での少量生産と、修理しながら長く使える器具づくりに取り組んでいる。',
    logo: 'logo-02.png',
  },
  mokume: {
    name: 'モクメ家具製作所',
    description:
      '無垢材の家具を設計から製作まで一貫して手がける工房。地域の広葉樹を使ったテーブルや椅子を中心に、修理や再塗装も受け付けている。',
    logo: 'logo-03.png',
  },
  itonami: {
    name: 'イトナミ・グラフィックス株式会社',
    description:
      'ブックデザイン、展覧会のグラフィック、企業のアイデンティティを手がけるデザイン事務所。編集者や印刷所との協働を大切にしている。',
    logo: 'logo-04.png',
  },
  kasane: {
    name: '株式会社カサネ素材研究所',
    description:
      '回収した繊維や樹脂、地域の未利用資源から新しい素材を開発する研究開発企業。メーカーやデザイナーとの共同開発も行う。',
    logo: 'logo-05.png',
  },
} as const;
type PartnerKey = keyof typeof PARTNERS;
const partnerId = (key: PartnerKey) => `partner-${key}`;

function buildPartners(): DemoItem[] {
  return (Object.keys(PARTNERS) as PartnerKey[]).map((key, i) => {
    const p = PARTNERS[key];
    return {
      id: partnerId(key),
      body: {
        name: p.name,
        description: p.description,
        logo: demoImage(p.logo, `${p.name}のロゴ`),
        website: `https://example.com/partners/${key}`,
        publishedAt: monthly(Date.UTC(2025, 6, 1, 1), i, 30),
      },
    };
  });
}

const JOBS: readonly {
  slug: string;
  partner: PartnerKey;
  title: string;
  description: string;
  employmentType: EmploymentType;
  location: string;
  salary: string;
  closingDate: string;
  cover: number;
  duties: string;
  requirements: readonly string[];
  welcome: readonly string[];
}[] = [
  {
    slug: 'sorane-architect',
    partner: 'sorane',
    title: '建築設計スタッフ（住宅・公共建築）',
    description:
      '住宅から地域の公共建築まで、基本設計から監理までを担当する設計スタッフを募集します。木造と改修の経験を生かしたい方を歓迎します。',
    employmentType: '正社員',
    location: '東京都渋谷区神宮前',
    salary: '年収 420万〜650万円（経験・能力を考慮して決定）',
    closingDate: '2027-01-31',
    cover: 1,
    duties:
      '住宅、図書館、集会所などのプロジェクトで、基本設計、実施設計、現場監理を担当していただきます。模型によるスタディを重視しており、所内の模型室で検討を重ねながら設計を進めます。',
    requirements: [
      '一級または二級建築士の資格',
      '設計事務所での実務経験3年以上',
      'CADでの図面作成',
    ],
    welcome: ['木造建築や改修の経験', '地域の住民との協働の経験'],
  },
  {
    slug: 'sorane-intern',
    partner: 'sorane',
    title: '設計アシスタント（学生インターン）',
    description:
      '模型製作や資料づくりを通じて、設計事務所の仕事を体験できるインターンです。建築を学ぶ学生の方、週2日から参加できます。',
    employmentType: 'インターン',
    location: '東京都渋谷区神宮前',
    salary: '時給 1,300円（交通費別途支給）',
    closingDate: '2027-03-15',
    cover: 9,
    duties:
      '設計スタッフのもとで、スタディ模型の製作、資料の整理、プレゼンテーション資料の作成を担当していただきます。現場見学や打ち合わせに同行する機会もあります。',
    requirements: ['建築または関連分野を学ぶ学生', '週2日以上、3か月以上勤務できる方'],
    welcome: ['模型製作の経験', 'ドローイングやスケッチが好きな方'],
  },
  {
    slug: 'lumeo-product-designer',
    partner: 'lumeo',
    title: '照明器具のプロダクトデザイナー',
    description:
      '住宅と商業空間向けの照明器具の企画からデザイン、量産設計までを担当していただきます。自社工場の職人と近い距離で働けます。',
    employmentType: '正社員',
    location: '東京都港区南青山',
    salary: '年収 500万〜750万円',
    closingDate: '2027-02-28',
    cover: 5,
    duties:
      '新製品の企画、デザイン、試作、量産設計までを一貫して担当します。自社工場と連携し、修理しやすい構造や交換できる部品の設計にも取り組んでいただきます。',
    requirements: [
      'プロダクトデザインの実務経験3年以上',
      '3D CADでのモデリング',
      '量産品の設計経験',
    ],
    welcome: ['照明器具や電気製品の設計経験', '英語での図面のやり取り'],
  },
  {
    slug: 'lumeo-lighting-coordinator',
    partner: 'lumeo',
    title: '照明計画コーディネーター',
    description:
      '設計事務所や施工会社と連携し、住宅や店舗の照明計画を提案する仕事です。光の質にこだわる空間づくりに関わりたい方を募集します。',
    employmentType: '契約社員',
    location: '大阪府大阪市北区',
    salary: '月給 28万〜35万円（賞与年2回）',
    closingDate: '2027-04-30',
    cover: 14,
    duties:
      '関西エリアの設計事務所や施工会社を担当し、照明計画の提案、器具の選定、現場での調光の立ち会いを行います。大阪のショールームでの接客も担当していただきます。',
    requirements: ['照明、インテリア、建築いずれかの実務経験', '普通自動車運転免許'],
    welcome: ['照明コンサルタントの資格', '照度計算ソフトの使用経験'],
  },
  {
    slug: 'mokume-woodworker',
    partner: 'mokume',
    title: '家具職人（木工）',
    description:
      '無垢材の家具づくりを、一から学びながら担当していただきます。未経験の方も、ものづくりへの強い関心があれば歓迎します。',
    employmentType: '正社員',
    location: '岐阜県高山市',
    salary: '月給 22万〜28万円（経験に応じて決定）',
    closingDate: '2027-05-31',
    cover: 7,
    duties:
      'テーブルや椅子の木取り、加工、組み立て、塗装までの工程を、先輩職人のもとで担当していただきます。修理や再塗装の依頼にも対応します。',
    requirements: ['ものづくりへの強い関心', '長く働き、技術を身につける意欲'],
    welcome: ['木工の学校や訓練校での学習経験', '家具や建具の製作経験'],
  },
  {
    slug: 'mokume-online-store',
    partner: 'mokume',
    title: 'オンラインストア運営・撮影スタッフ',
    description:
      '自社オンラインストアの商品撮影、商品ページの作成、お客さまへの対応を担当するアルバイトです。週3日から、一部在宅でも働けます。',
    employmentType: 'アルバイト',
    location: '岐阜県高山市（一部在宅勤務可）',
    salary: '時給 1,150円〜',
    closingDate: '2027-03-31',
    cover: 15,
    duties:
      '工房で製作した家具の撮影、商品ページの文章作成、お問い合わせへの対応、出荷の手配を担当していただきます。',
    requirements: ['写真撮影が好きな方', 'パソコンでの基本的な作業'],
    welcome: ['オンラインストアの運営経験', '画像編集ソフトの使用経験'],
  },
  {
    slug: 'itonami-book-designer',
    partner: 'itonami',
    title: 'グラフィックデザイナー（ブックデザイン）',
    description:
      '書籍や図録の装丁、本文レイアウトを担当するデザイナーを募集します。編集者や印刷所と対話しながら、本づくりに深く関われます。',
    employmentType: '正社員',
    location: '東京都港区西麻布',
    salary: '年収 400万〜600万円',
    closingDate: '2027-02-15',
    cover: 4,
    duties:
      '書籍、展覧会の図録、企業の冊子などのデザインを担当します。紙や加工の選定、入稿、色校正の確認まで、本ができあがるまでの工程に関わっていただきます。',
    requirements: [
      'デザイン事務所などでの実務経験2年以上',
      'InDesign、Illustrator、Photoshop の使用',
    ],
    welcome: ['和文組版の知識', '展覧会のグラフィックの経験'],
  },
  {
    slug: 'itonami-web-designer',
    partner: 'itonami',
    title: 'ウェブデザイナー',
    description:
      '展覧会や出版社のウェブサイトのデザインを、業務委託でお願いします。在宅を中心に、月数回の打ち合わせに参加できる方を募集します。',
    employmentType: '業務委託',
    location: '在宅（打ち合わせは東京都港区の事務所で月2回程度）',
    salary: '月額 40万〜60万円（稼働時間と案件により決定）',
    closingDate: '2027-01-15',
    cover: 29,
    duties:
      '展覧会の特設サイトや出版社のウェブサイトのデザインを担当します。グラフィックのアイデンティティをウェブに展開し、画面幅に応じたレイアウトのルールを設計していただきます。',
    requirements: ['ウェブデザインの実務経験3年以上', 'Figma の使用', 'レスポンシブデザインの知識'],
    welcome: ['HTML と CSS の実装経験', 'タイポグラフィへの関心'],
  },
  {
    slug: 'kasane-materials-engineer',
    partner: 'kasane',
    title: '素材開発エンジニア',
    description:
      '回収した繊維や樹脂を原料に、新しい素材を開発するエンジニアを募集します。メーカーやデザイナーとの共同開発にも携わります。',
    employmentType: '正社員',
    location: '神奈川県川崎市',
    salary: '年収 550万〜800万円',
    closingDate: '2027-06-30',
    cover: 27,
    duties:
      '再生素材の配合の検討、試作、物性の評価を担当します。共同開発先のデザイナーと対話しながら、見た目や手触りも含めた素材の仕様を決めていきます。',
    requirements: ['材料工学、化学などの専攻または実務経験', '素材の評価試験の経験'],
    welcome: ['樹脂や繊維のリサイクルに関する知識', 'デザイナーとの協働経験'],
  },
  {
    slug: 'kasane-communications',
    partner: 'kasane',
    title: 'サステナビリティ・コミュニケーション担当',
    description:
      '素材の環境負荷に関するデータをもとに、取り組みをわかりやすく誠実に伝える仕事です。報告書やウェブサイトの制作を担当します。',
    employmentType: '契約社員',
    location: '東京都港区虎ノ門',
    salary: '年収 450万〜600万円',
    closingDate: '2027-04-15',
    cover: 2,
    duties:
      'カーボンフットプリントなどのデータを社内の研究者とともに整理し、報告書、ウェブサイト、展示会の資料として発信します。表現が実態を超えないよう、根拠の確認にも責任を持っていただきます。',
    requirements: ['広報、編集、コンサルティングいずれかの実務経験', '数字に基づいた文章を書く力'],
    welcome: ['環境に関する資格や学習経験', '英語での情報発信の経験'],
  },
];

/** The structured conditions of each demo job (the /jobs filters and JobPosting read them). */
const CONDITIONS: Readonly<
  Record<
    string,
    {
      occupation: Occupation;
      prefecture: Prefecture | null;
      remote: RemoteOption;
      salary: [SalaryUnit, number, number | null];
      hours: string;
    }
  >
> = {
  'sorane-architect': {
    occupation: '建築・インテリア',
    prefecture: '東京都',
    remote: '出社',
    salary: ['年収', 4_200_000, 6_500_000],
    hours: '10:00〜19:00（休憩1時間）',
  },
  'sorane-intern': {
    occupation: '建築・インテリア',
    prefecture: '東京都',
    remote: '出社',
    salary: ['時給', 1_300, null],
    hours: '週2日以上、10:00〜18:00の間で相談',
  },
  'lumeo-product-designer': {
    occupation: 'プロダクトデザイン',
    prefecture: '東京都',
    remote: '一部リモート',
    salary: ['年収', 5_000_000, 7_500_000],
    hours: 'フレックスタイム制（コアタイム 11:00〜15:00）',
  },
  'lumeo-lighting-coordinator': {
    occupation: '企画・営業',
    prefecture: '大阪府',
    remote: '出社',
    salary: ['月給', 280_000, 350_000],
    hours: '9:30〜18:30（休憩1時間）',
  },
  'mokume-woodworker': {
    occupation: 'プロダクトデザイン',
    prefecture: '岐阜県',
    remote: '出社',
    salary: ['月給', 220_000, 280_000],
    hours: '8:30〜17:30（休憩1時間）',
  },
  'mokume-online-store': {
    occupation: '写真・映像',
    prefecture: '岐阜県',
    remote: '一部リモート',
    salary: ['時給', 1_150, null],
    hours: '週3日から、9:00〜16:00の間で1日5時間程度',
  },
  'itonami-book-designer': {
    occupation: 'グラフィックデザイン',
    prefecture: '東京都',
    remote: '出社',
    salary: ['年収', 4_000_000, 6_000_000],
    hours: '10:00〜19:00（休憩1時間）',
  },
  'itonami-web-designer': {
    occupation: 'ウェブ・UIデザイン',
    prefecture: null,
    remote: 'フルリモート',
    salary: ['月給', 400_000, 600_000],
    hours: '月120時間程度（稼働日と時間は相談）',
  },
  'kasane-materials-engineer': {
    occupation: 'エンジニア',
    prefecture: '神奈川県',
    remote: '一部リモート',
    salary: ['年収', 5_500_000, 8_000_000],
    hours: '9:00〜18:00（休憩1時間）',
  },
  'kasane-communications': {
    occupation: '編集・ライティング',
    prefecture: '東京都',
    remote: '一部リモート',
    salary: ['年収', 4_500_000, 6_000_000],
    hours: '9:30〜18:30（休憩1時間）',
  },
};

const BENEFITS: Record<EmploymentType, readonly string[]> = {
  正社員: [
    '社会保険完備',
    '交通費支給（月3万円まで）',
    '書籍購入と展覧会鑑賞の補助',
    '年次有給休暇、夏季・年末年始休暇',
  ],
  契約社員: ['社会保険完備', '交通費支給', '契約期間は1年（更新あり）', '年次有給休暇'],
  業務委託: [
    '稼働日と時間は相談のうえ決定',
    '打ち合わせ時の交通費は実費精算',
    '契約期間は6か月（更新あり）',
  ],
  インターン: ['交通費支給', '勤務日数と時間は学業に合わせて相談', '所内勉強会への参加'],
  アルバイト: ['交通費支給', 'シフトは週ごとに相談', '社員割引あり'],
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ul = (items: readonly string[]) =>
  `<ul>${items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>`;

function buildJobs(): DemoItem[] {
  return JOBS.map((job, i) => {
    const partner = PARTNERS[job.partner];
    const body = [
      `<p>${escape(partner.description)}</p>`,
      '<h2>仕事内容</h2>',
      `<p>${escape(job.duties)}</p>`,
      '<h2>応募資格</h2>',
      ul(job.requirements),
      '<h3>歓迎する経験</h3>',
      ul(job.welcome),
      '<h2>雇用形態・勤務地・給与</h2>',
      ul([`雇用形態：${job.employmentType}`, `勤務地：${job.location}`, `給与：${job.salary}`]),
      '<h2>待遇・福利厚生</h2>',
      ul(BENEFITS[job.employmentType]),
      '<h2>選考の流れ</h2>',
      '<ol><li>応募フォームから書類（履歴書、職務経歴書、ポートフォリオ）を提出</li><li>書類選考</li><li>面接（1〜2回）</li><li>内定</li></ol>',
      `<p>応募の締切は${job.closingDate.replace(/^(\d{4})-0?(\d+)-0?(\d+)$/, '$1年$2月$3日')}です。選考の結果は、応募から2週間以内にご連絡します。</p>`,
    ].join('');
    const c = CONDITIONS[job.slug];
    if (!c) throw new Error(`demo job ${job.slug} has no conditions`);
    return {
      id: `job-${pad3(i + 1)}`,
      body: {
        title: job.title,
        partner: partnerId(job.partner),
        description: job.description,
        coverImage: demoCover(job.cover),
        body,
        employmentType: [job.employmentType],
        occupation: [c.occupation],
        prefecture: c.prefecture ? [c.prefecture] : [],
        remote: [c.remote],
        location: job.location,
        salaryUnit: [c.salary[0]],
        salaryMin: c.salary[1],
        ...(c.salary[2] === null ? {} : { salaryMax: c.salary[2] }),
        hours: c.hours,
        applyUrl: `https://example.com/recruit/${job.slug}`,
        closingDate: `${job.closingDate}T23:59:59+09:00`,
        publishedAt: monthly(Date.UTC(2026, 6, 1, 1), i, 13),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------

function buildWriters(): DemoItem[] {
  return (Object.keys(WRITERS) as WriterKey[]).map((key) => {
    const w: { name: string; nameKana: string; role: string; profile: string; avatar?: string } =
      WRITERS[key];
    const body: Record<string, unknown> = {
      name: w.name,
      nameKana: w.nameKana,
      role: w.role,
      profile: w.profile,
      website: `https://example.com/writers/${key}`,
    };
    if (w.avatar) body.avatar = demoImage(w.avatar, `${w.name}のイメージ（抽象的な図形）`);
    return { id: writerId(key), body };
  });
}

function buildTags(): DemoItem[] {
  return (Object.keys(TAGS) as TagKey[]).map((key) => ({
    id: tagId(key),
    body: { name: TAGS[key] },
  }));
}

function buildCategories(): DemoItem[] {
  return (Object.keys(CATEGORIES) as TopicKey[]).map((key) => {
    const c = CATEGORIES[key];
    return {
      id: categoryId(key),
      body: {
        name: c.name,
        description: c.description,
        coverImage: demoCover(c.cover),
        issueNumber: c.issueNumber,
        isFeatured: c.isFeatured === true,
        publishedAt: c.publishedAt,
      },
    };
  });
}

function buildSeries(): DemoItem[] {
  return (Object.keys(SERIES) as SeriesKey[]).map((key) => {
    const s = SERIES[key];
    return {
      id: seriesId(key),
      body: {
        title: s.title,
        description: s.description,
        coverImage: demoCover(s.cover),
        writers: s.writers.map(writerId),
      },
    };
  });
}

/** Every list endpoint's demo items, in an order where references come first. */
export function demoLists(): DemoList[] {
  return [
    { endpoint: 'writers', items: buildWriters() },
    { endpoint: 'tags', items: buildTags() },
    { endpoint: 'categories', items: buildCategories() },
    { endpoint: 'series', items: buildSeries() },
    { endpoint: 'posts', items: buildPosts() },
    { endpoint: 'audios', items: buildAudios() },
    { endpoint: 'movies', items: buildMovies() },
    { endpoint: 'connect', items: buildConnect() },
    { endpoint: 'partners', items: buildPartners() },
    { endpoint: 'jobs', items: buildJobs() },
  ];
}
