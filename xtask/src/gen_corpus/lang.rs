//! Text in the languages of the legacy-encoded pages: word lists written
//! for this project (no text is taken from anywhere) and sentences built
//! from them, shaped like each language's running text (particles after
//! Japanese and Korean nouns, no spaces in Chinese and Japanese, the
//! script's own punctuation), which is what an encoding detector looks at.

use super::Rng;

/// One language's words and punctuation.
pub struct Lang {
    /// The `<html lang>` tag.
    pub tag: &'static str,
    /// The site's name, in the language.
    pub site: &'static str,
    /// Navigation link texts.
    pub nav: &'static [&'static str],
    /// Nouns (and names).
    pub nouns: &'static [&'static str],
    /// Adjectives, adverbs, connectives: the filler between nouns.
    pub others: &'static [&'static str],
    /// Predicates that end a sentence.
    pub verbs: &'static [&'static str],
    /// How a sentence is put together.
    pub grammar: Grammar,
    /// Sentence-final punctuation, and the comma.
    pub stop: &'static str,
    pub comma: &'static str,
    /// A pair of quotation marks, for a quoted phrase now and then.
    pub quotes: (&'static str, &'static str),
    /// "Read more", under each teaser.
    pub more: &'static str,
}

/// How words become a sentence.
pub enum Grammar {
    /// Words with spaces between them, the first capitalized.
    Spaced,
    /// Words run together (Chinese).
    Unspaced,
    /// Nouns followed by one of these particles, run together, then the
    /// predicate (Japanese).
    Particles(&'static [&'static str]),
    /// Nouns with the particle their last syllable takes (Korean: after a
    /// final consonant the first of each pair, else the second), spaced.
    Batchim(&'static [(&'static str, &'static str)]),
}

impl Lang {
    /// One sentence, ending in the language's full stop.
    pub fn sentence(&self, rng: &mut Rng) -> String {
        let mut s = String::new();
        match self.grammar {
            Grammar::Spaced => {
                let n = rng.range(5, 14);
                for i in 0..n {
                    if i > 0 {
                        s.push_str(if i > 3 && rng.chance(8) {
                            self.comma
                        } else {
                            ""
                        });
                        s.push(' ');
                    }
                    s.push_str(self.word(rng));
                }
                s.push(' ');
                s.push_str(rng.pick(self.verbs));
                s = capitalized(&s);
            }
            Grammar::Unspaced => {
                for i in 0..rng.range(3, 7) {
                    if i > 0 && rng.chance(15) {
                        s.push_str(self.comma);
                    }
                    s.push_str(rng.pick(self.nouns));
                    if rng.chance(40) {
                        s.push_str(rng.pick(self.others));
                    }
                    if rng.chance(30) {
                        s.push_str(rng.pick(self.verbs));
                    }
                }
                s.push_str(rng.pick(self.verbs));
                s.push_str(rng.pick(self.nouns));
            }
            Grammar::Particles(particles) => {
                for i in 0..rng.range(2, 5) {
                    if i > 0 && rng.chance(20) {
                        s.push_str(self.comma);
                    }
                    if rng.chance(25) {
                        s.push_str(rng.pick(self.others));
                    }
                    s.push_str(rng.pick(self.nouns));
                    s.push_str(rng.pick(particles));
                }
                s.push_str(rng.pick(self.verbs));
            }
            Grammar::Batchim(particles) => {
                for i in 0..rng.range(2, 5) {
                    if i > 0 {
                        s.push(' ');
                    }
                    if rng.chance(25) {
                        s.push_str(rng.pick(self.others));
                        s.push(' ');
                    }
                    let noun = rng.pick(self.nouns);
                    let (after_consonant, after_vowel) = particles[rng.below(particles.len())];
                    s.push_str(noun);
                    s.push_str(if ends_in_consonant(noun) {
                        after_consonant
                    } else {
                        after_vowel
                    });
                }
                s.push(' ');
                s.push_str(rng.pick(self.verbs));
            }
        }
        if rng.chance(10) {
            let quoted = rng.pick(self.nouns);
            let space = if matches!(self.grammar, Grammar::Spaced | Grammar::Batchim(_)) {
                " "
            } else {
                ""
            };
            s = format!("{s}{space}{}{quoted}{}", self.quotes.0, self.quotes.1);
        }
        s.push_str(self.stop);
        s
    }

    /// A few sentences.
    pub fn paragraph(&self, rng: &mut Rng) -> String {
        let space = if matches!(self.grammar, Grammar::Unspaced | Grammar::Particles(_)) {
            ""
        } else {
            " "
        };
        let mut s = String::new();
        for i in 0..rng.range(2, 6) {
            if i > 0 {
                s.push_str(space);
            }
            s.push_str(&self.sentence(rng));
        }
        s
    }

    /// A short headline: a sentence without its full stop.
    pub fn headline(&self, rng: &mut Rng) -> String {
        let mut s = self.sentence(rng);
        s.truncate(s.len() - self.stop.len());
        s
    }

    fn word(&self, rng: &mut Rng) -> &'static str {
        if rng.chance(45) {
            rng.pick(self.nouns)
        } else {
            rng.pick(self.others)
        }
    }
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether the last Hangul syllable of `word` has a final consonant.
fn ends_in_consonant(word: &str) -> bool {
    word.chars()
        .last()
        .map(|c| c as u32)
        .is_some_and(|c| (0xAC00..=0xD7A3).contains(&c) && (c - 0xAC00) % 28 != 0)
}

pub const JAPANESE: Lang = Lang {
    tag: "ja",
    site: "みなと新聞",
    nav: &["ニュース", "経済", "スポーツ", "天気", "地域"],
    nouns: &[
        "東京",
        "大阪",
        "京都",
        "横浜",
        "政府",
        "会議",
        "経済",
        "市場",
        "技術",
        "研究者",
        "学校",
        "子供たち",
        "地域",
        "電車",
        "天気",
        "情報",
        "会社",
        "社長",
        "世界",
        "日本",
        "問題",
        "結果",
        "予算",
        "選挙",
        "住民",
        "病院",
        "図書館",
        "駅",
        "今年",
        "来週",
        "先月",
        "祭り",
        "川",
        "山",
        "橋",
        "港",
        "大学",
        "先生",
        "学生",
        "野球",
        "試合",
        "選手",
        "料理",
        "店",
        "新製品",
        "ニュース",
        "サービス",
        "インターネット",
        "コンピュータ",
        "データ",
        "システム",
        "プロジェクト",
        "チーム",
        "イベント",
        "記者",
        "調査",
        "計画",
        "工事",
        "道路",
        "雨",
        "雪",
    ],
    others: &[
        "新しい",
        "大きな",
        "小さな",
        "多くの",
        "重要な",
        "今後の",
        "最近の",
        "地元の",
        "有名な",
        "初めての",
        "毎年の",
        "静かな",
    ],
    verbs: &[
        "発表しました",
        "始まります",
        "行われました",
        "増えています",
        "話し合いました",
        "決まりました",
        "見られます",
        "進めています",
        "明らかにしました",
        "必要です",
        "開かれました",
        "減っています",
        "注目されています",
        "予定です",
        "続いています",
        "報告しました",
    ],
    grammar: Grammar::Particles(&[
        "は",
        "が",
        "を",
        "に",
        "で",
        "と",
        "の",
        "から",
        "まで",
        "について",
        "によると",
        "では",
    ]),
    stop: "。",
    comma: "、",
    quotes: ("「", "」"),
    more: "続きを読む",
};

pub const CHINESE_SIMPLIFIED: Lang = Lang {
    tag: "zh-CN",
    site: "城市新闻网",
    nav: &["首页", "新闻", "财经", "体育", "科技"],
    nouns: &[
        "政府", "经济", "市场", "公司", "城市", "学校", "学生", "老师", "记者", "北京", "上海",
        "广州", "深圳", "技术", "研究", "发展", "问题", "工作", "人民", "国家", "社会", "文化",
        "教育", "环境", "交通", "天气", "新闻", "银行", "医院", "农村", "企业", "项目", "计划",
        "会议", "专家", "居民", "地区", "产品", "服务", "网络", "数据", "市民", "今年", "目前",
    ],
    others: &[
        "的",
        "了",
        "在",
        "是",
        "和",
        "对",
        "将",
        "已经",
        "正在",
        "我们",
        "他们",
        "这个",
        "一些",
        "新的",
        "重要的",
        "进一步",
        "全面",
        "积极",
    ],
    verbs: &[
        "表示", "认为", "发布", "进行", "提出", "加强", "推动", "参加", "举行", "完成", "支持",
        "提高", "介绍", "宣布", "开展", "建设",
    ],
    grammar: Grammar::Unspaced,
    stop: "。",
    comma: "，",
    quotes: ("“", "”"),
    more: "阅读全文",
};

pub const CHINESE_TRADITIONAL: Lang = Lang {
    tag: "zh-TW",
    site: "城市新聞網",
    nav: &["首頁", "新聞", "財經", "體育", "科技"],
    nouns: &[
        "政府", "經濟", "市場", "公司", "城市", "學校", "學生", "老師", "記者", "臺北", "高雄",
        "臺中", "香港", "技術", "研究", "發展", "問題", "工作", "人民", "國家", "社會", "文化",
        "教育", "環境", "交通", "天氣", "新聞", "銀行", "醫院", "農村", "企業", "計畫", "會議",
        "專家", "居民", "地區", "產品", "服務", "網路", "資料", "市民", "今年", "目前",
    ],
    others: &[
        "的",
        "了",
        "在",
        "是",
        "和",
        "對",
        "將",
        "已經",
        "正在",
        "我們",
        "他們",
        "這個",
        "一些",
        "新的",
        "重要的",
        "進一步",
        "全面",
        "積極",
    ],
    verbs: &[
        "表示", "認為", "發布", "進行", "提出", "加強", "推動", "參加", "舉行", "完成", "支持",
        "提高", "介紹", "宣布", "展開", "建設",
    ],
    grammar: Grammar::Unspaced,
    stop: "。",
    comma: "，",
    quotes: ("「", "」"),
    more: "閱讀全文",
};

pub const KOREAN: Lang = Lang {
    tag: "ko",
    site: "한빛일보",
    nav: &["뉴스", "경제", "스포츠", "날씨", "지역"],
    nouns: &[
        "정부",
        "경제",
        "시장",
        "회사",
        "도시",
        "학교",
        "학생",
        "선생님",
        "기자",
        "서울",
        "부산",
        "대구",
        "기술",
        "연구",
        "발전",
        "문제",
        "사회",
        "국민",
        "문화",
        "교육",
        "환경",
        "교통",
        "날씨",
        "뉴스",
        "은행",
        "병원",
        "기업",
        "계획",
        "회의",
        "올해",
        "지역",
        "주민",
        "대학",
        "선수",
        "경기",
        "가격",
        "정책",
        "축제",
        "도로",
        "공원",
        "시민",
        "전문가",
    ],
    others: &[
        "새로운",
        "중요한",
        "많은",
        "작은",
        "큰",
        "지난",
        "최근",
        "다양한",
        "올해의",
        "지역의",
    ],
    verbs: &[
        "발표했다",
        "밝혔다",
        "늘어났다",
        "진행했다",
        "시작된다",
        "필요하다",
        "논의했다",
        "결정했다",
        "열렸다",
        "줄었다",
        "예정이다",
        "계속된다",
        "전했다",
        "설명했다",
    ],
    grammar: Grammar::Batchim(&[
        ("은", "는"),
        ("이", "가"),
        ("을", "를"),
        ("과", "와"),
        ("으로", "로"),
        ("에서", "에서"),
        ("의", "의"),
    ]),
    stop: ".",
    comma: ",",
    quotes: ("‘", "’"),
    more: "더 보기",
};

pub const RUSSIAN: Lang = Lang {
    tag: "ru",
    site: "Городские новости",
    nav: &["Главная", "Новости", "Экономика", "Спорт", "Погода"],
    nouns: &[
        "правительство",
        "город",
        "экономика",
        "рынок",
        "компания",
        "школа",
        "ученики",
        "учитель",
        "журналист",
        "Москва",
        "Петербург",
        "Новосибирск",
        "технология",
        "развитие",
        "проблема",
        "работа",
        "общество",
        "культура",
        "образование",
        "погода",
        "новости",
        "банк",
        "больница",
        "проект",
        "заседание",
        "года",
        "области",
        "жители",
        "мэрия",
        "дорога",
        "мост",
        "река",
        "театр",
        "музей",
        "университет",
        "студенты",
        "цены",
        "зарплата",
        "весна",
        "осень",
        "зима",
        "лето",
    ],
    others: &[
        "в",
        "и",
        "на",
        "с",
        "по",
        "для",
        "о",
        "что",
        "который",
        "новый",
        "большой",
        "важный",
        "российский",
        "городской",
        "сегодня",
        "вчера",
        "уже",
        "ещё",
        "очень",
        "также",
        "после",
        "этого",
        "всех",
        "местных",
        "первый",
        "последний",
    ],
    verbs: &[
        "заявил",
        "сообщил",
        "начался",
        "продолжается",
        "будет",
        "было",
        "обсудили",
        "решили",
        "открылся",
        "выросли",
        "снизились",
        "планируется",
        "рассказали",
        "объявили",
    ],
    grammar: Grammar::Spaced,
    stop: ".",
    comma: ",",
    quotes: ("«", "»"),
    more: "Читать далее",
};

pub const ARABIC: Lang = Lang {
    tag: "ar",
    site: "أخبار المدينة",
    nav: &["الرئيسية", "أخبار", "اقتصاد", "رياضة", "الطقس"],
    nouns: &[
        "الحكومة",
        "المدينة",
        "الاقتصاد",
        "السوق",
        "الشركة",
        "المدرسة",
        "الطلاب",
        "المعلم",
        "الصحفي",
        "القاهرة",
        "الرياض",
        "بيروت",
        "عمان",
        "التكنولوجيا",
        "التنمية",
        "المشكلة",
        "العمل",
        "المجتمع",
        "الثقافة",
        "التعليم",
        "الطقس",
        "الأخبار",
        "البنك",
        "المستشفى",
        "المشروع",
        "الاجتماع",
        "العام",
        "المنطقة",
        "السكان",
        "الوزير",
        "الجامعة",
        "الأسعار",
        "الطريق",
        "الجسر",
        "النهر",
        "المتحف",
        "المهرجان",
        "الشتاء",
        "الصيف",
    ],
    others: &[
        "في",
        "على",
        "من",
        "إلى",
        "مع",
        "عن",
        "أن",
        "التي",
        "الذي",
        "جديد",
        "كبير",
        "مهم",
        "العربية",
        "اليوم",
        "أمس",
        "بعد",
        "قبل",
        "كل",
        "هذا",
        "هذه",
        "أيضا",
        "المحلية",
    ],
    verbs: &[
        "قال",
        "أعلن",
        "بدأ",
        "يستمر",
        "سوف يعقد",
        "كان",
        "ناقش",
        "قرر",
        "افتتح",
        "ارتفعت",
        "انخفضت",
        "أكد",
        "أوضح",
        "أشار",
    ],
    grammar: Grammar::Spaced,
    stop: ".",
    comma: "،",
    quotes: ("«", "»"),
    more: "اقرأ المزيد",
};

pub const CZECH: Lang = Lang {
    tag: "cs",
    site: "Městské zprávy",
    nav: &["Úvod", "Zprávy", "Ekonomika", "Sport", "Počasí"],
    nouns: &[
        "vláda",
        "město",
        "ekonomika",
        "trh",
        "společnost",
        "škola",
        "žáci",
        "učitel",
        "novinář",
        "Praha",
        "Brno",
        "Ostrava",
        "Plzeň",
        "technologie",
        "rozvoj",
        "problém",
        "práce",
        "kultura",
        "vzdělání",
        "počasí",
        "zprávy",
        "banka",
        "nemocnice",
        "projekt",
        "schůze",
        "rok",
        "kraj",
        "obyvatelé",
        "řeka",
        "most",
        "silnice",
        "divadlo",
        "muzeum",
        "univerzita",
        "studenti",
        "ceny",
        "mzdy",
        "jaro",
        "podzim",
        "zima",
        "léto",
        "čtvrtek",
        "úterý",
        "středa",
    ],
    others: &[
        "v",
        "a",
        "na",
        "s",
        "pro",
        "o",
        "že",
        "který",
        "nový",
        "velký",
        "důležitý",
        "český",
        "městský",
        "příští",
        "dnes",
        "včera",
        "už",
        "ještě",
        "velmi",
        "také",
        "po",
        "všech",
        "místních",
        "první",
        "poslední",
        "při",
        "ze",
        "než",
    ],
    verbs: &[
        "řekl",
        "oznámil",
        "začal",
        "pokračuje",
        "bude",
        "bylo",
        "projednali",
        "rozhodli",
        "otevřel",
        "vzrostly",
        "klesly",
        "plánuje",
        "uvedli",
        "potvrdil",
    ],
    grammar: Grammar::Spaced,
    stop: ".",
    comma: ",",
    // ISO-8859-2 has no curly quotes: pages in it write references.
    quotes: ("&bdquo;", "&ldquo;"),
    more: "Číst dále",
};

pub const POLISH: Lang = Lang {
    tag: "pl",
    site: "Wiadomości miejskie",
    nav: &[
        "Strona główna",
        "Wiadomości",
        "Gospodarka",
        "Sport",
        "Pogoda",
    ],
    nouns: &[
        "rząd",
        "miasto",
        "gospodarka",
        "rynek",
        "spółka",
        "szkoła",
        "uczniowie",
        "nauczyciel",
        "dziennikarz",
        "Warszawa",
        "Kraków",
        "Gdańsk",
        "Łódź",
        "Wrocław",
        "technologia",
        "rozwój",
        "problem",
        "praca",
        "społeczeństwo",
        "kultura",
        "edukacja",
        "pogoda",
        "wiadomości",
        "bank",
        "szpital",
        "projekt",
        "posiedzenie",
        "rok",
        "województwo",
        "mieszkańcy",
        "rzeka",
        "most",
        "droga",
        "teatr",
        "muzeum",
        "uczelnia",
        "studenci",
        "ceny",
        "płace",
        "wiosna",
        "jesień",
        "zima",
        "lato",
        "środa",
        "piątek",
        "źródło",
    ],
    others: &[
        "w",
        "i",
        "na",
        "z",
        "dla",
        "o",
        "że",
        "który",
        "nowy",
        "duży",
        "ważny",
        "polski",
        "miejski",
        "przyszły",
        "dzisiaj",
        "wczoraj",
        "już",
        "jeszcze",
        "bardzo",
        "także",
        "po",
        "wszystkich",
        "lokalnych",
        "pierwszy",
        "ostatni",
        "przy",
        "się",
        "żółty",
    ],
    verbs: &[
        "powiedział",
        "ogłosił",
        "rozpoczął",
        "kontynuuje",
        "będzie",
        "było",
        "omówili",
        "zdecydowali",
        "otworzył",
        "wzrosły",
        "spadły",
        "planuje",
        "podali",
        "potwierdził",
    ],
    grammar: Grammar::Spaced,
    stop: ".",
    comma: ",",
    quotes: ("&bdquo;", "&rdquo;"),
    more: "Czytaj dalej",
};

pub const FRENCH: Lang = Lang {
    tag: "fr",
    site: "Le Courrier de la Ville",
    nav: &["Accueil", "Actualités", "Économie", "Sports", "Météo"],
    nouns: &[
        "gouvernement",
        "ville",
        "économie",
        "marché",
        "société",
        "école",
        "élèves",
        "professeur",
        "journaliste",
        "Paris",
        "Lyon",
        "Marseille",
        "Besançon",
        "technologie",
        "développement",
        "problème",
        "travail",
        "culture",
        "éducation",
        "météo",
        "nouvelles",
        "banque",
        "hôpital",
        "projet",
        "réunion",
        "année",
        "région",
        "habitants",
        "rivière",
        "pont",
        "théâtre",
        "musée",
        "université",
        "étudiants",
        "prix",
        "salaires",
        "printemps",
        "été",
        "hiver",
        "automne",
        "œuvre",
        "cœur",
        "fête",
        "château",
    ],
    others: &[
        "à",
        "en",
        "et",
        "avec",
        "pour",
        "de",
        "que",
        "qui",
        "nouveau",
        "grand",
        "important",
        "français",
        "municipal",
        "prochain",
        "aujourd’hui",
        "hier",
        "déjà",
        "encore",
        "très",
        "aussi",
        "après",
        "où",
        "même",
        "première",
        "dernière",
        "près",
        "entre",
        "l’an",
    ],
    verbs: &[
        "a déclaré",
        "a annoncé",
        "a commencé",
        "continue",
        "sera",
        "était",
        "ont discuté",
        "ont décidé",
        "a ouvert",
        "ont augmenté de 3 €",
        "ont baissé",
        "est prévu",
        "ont indiqué",
        "a confirmé",
    ],
    grammar: Grammar::Spaced,
    stop: ".",
    comma: ",",
    quotes: ("“", "”"),
    more: "Lire la suite…",
};
