"""The embedded studio's knowledge as its readers use it: one entry per registered genre (a view of
crumb.genres, where each genre is one folder), plus the themes, colours and extras a pitch can name,
each with keywords in the pitch languages.

Genres live in their folders (docs/add-a-genre.md); this module only flattens them for the Planner,
researcher and steering. Themes, colours and extras are data kept here.

Keyword syntax: a plain word matches a whole word (Latin scripts) or a substring (CJK, Hangul,
kana); a trailing `*` matches any word that starts with it ("shoot*" → shooter, shooting).
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from crumb.genres import LANGUAGES, Count, Genre, GenreControls
from crumb.genres.registry import Registry, registry

# GENRES and NUMBER_SUPPORT come from the module __getattr__ below (read from the registry when asked)
__all__ = ["LANGUAGES", "GENRES", "NUMBER_SUPPORT",  # noqa: F822
           "CatalogueEntry", "GenreControls", "ThemeEntry", "ColourEntry",
           "ExtraEntry", "THEMES", "DEFAULT_THEME", "COLOURS", "EXTRAS", "NO_CLOCK", "NO_TIME_LIMIT", "RUNTIME_EXTRAS", "SWITCHABLE_EXTRAS", "KNOBS", "genres", "genre_ids", "entry",
           "theme", "number_support", "evidence_id"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CatalogueEntry(_Data):
    """A reference game: what it is, how it plays, and the words that name it (every language's, flattened)."""

    id: str = Field(description="the genre name the builder knows")
    name: str
    names: dict[str, str] = Field(default_factory=dict, description="display name per language")
    strong: tuple[str, ...] = Field(description="words that name this genre outright")
    weak: tuple[str, ...] = Field(default=(), description="words that only suggest it")
    verbs: tuple[str, ...] = Field(default=(), description="words for its main action")
    famous: tuple[str, ...] = Field(default=(), description="famous games' names that mean it")
    core_loop: str
    controls: GenreControls
    win: str
    lose: str
    rules: str
    references: tuple[str, ...]
    defaults: dict[str, int] = Field(default_factory=dict, description="what the game is built with when the spec is silent")
    themes: dict[str, int] = Field(default_factory=dict, description="theme id -> rank, for pitches naming no genre")
    idle_safe: bool = Field(
        default=False, description="waiting without input cannot end the round before its clock does"
    )
    survive_win: bool = Field(default=False, description="with a clock and no target, the win is surviving the round")
    rule_numbers: tuple[int, ...] = Field(default=(), description="numbers the game's own rules say (match three)")
    counts: tuple[Count, ...] = Field(default=(), description="counts in the genre's own nouns a spec number carries")
    extras: tuple[str, ...] = Field(default=(), description="the extras (EXTRAS ids) the game has")
    draws: tuple[str, ...] = Field(default=(), description="the subjects (subjects.SUBJECTS ids) the game draws")
    can_draw: tuple[str, ...] = Field(default=(), description="the subjects it draws when the spec's extras ask")
    hero: str | None = Field(default=None, description="the subject the player is, which a can_draw subject replaces")


class ThemeEntry(_Data):
    id: str
    name: str
    keywords: tuple[str, ...]
    palette: tuple[str, ...] = Field(description="background, player, target/enemy, accent, text")


class ColourEntry(_Data):
    id: str
    hex: str
    keywords: tuple[str, ...]


class ExtraEntry(_Data):
    id: str
    keywords: tuple[str, ...]


THEMES: tuple[ThemeEntry, ...] = (
    ThemeEntry(id="neon", name="Neon", keywords=("neon", "glow*", "synthwave", "霓虹", "네온", "ネオン", "néon", "неон*",
                                                 "neonow*", "neonowy", "неонов*", "phát sáng", "dạ quang",
                                                 "fluorescent*", "fluo"),
               palette=("#0a0a1a", "#39ff14", "#ff2bd6", "#00e5ff", "#f8f8ff")),
    ThemeEntry(id="pastel", name="Pastel", keywords=("pastel*", "pastell*", "粉彩", "马卡龙", "馬卡龍", "파스텔", "パステル",
                                                     "пастел*", "pastelow*", "màu phấn"),
               palette=("#fdf6f0", "#a0c4ff", "#ffadad", "#caffbf", "#5a5a6e")),
    ThemeEntry(id="space", name="Space", keywords=("space", "galax*", "planet*", "stars", "starry", "starfield",
                                                   "cosmic", "ruimte", "weltall", "weltraum", "all'universo", "spazi*",
                                                   "太空", "宇宙", "星空", "우주", "スペース", "espacio", "espacial*", "espace",
                                                   "spatial*", "espaço", "космос*", "космическ*", "kosmos*",
                                                   "kosmiczn*", "uzay*", "космічн*", "không gian", "vũ trụ", "galaxia*",
                                                   "galaxie*", "galáxia*", "галактик*", "galaktyk*", "galaksi*"),
               palette=("#05051a", "#e0e0ff", "#ff6b6b", "#ffd166", "#ffffff")),
    ThemeEntry(id="underwater", name="Underwater", keywords=("underwater", "under water", "ocean*", "sea", "fish*",
                                                             "onderwater", "zee", "vis", "unterwasser", "ozean",
                                                             "fisch*", "subacque*", "mare", "oceano", "pesc*", "水下",
                                                             "海底", "海洋", "鱼", "魚", "수중", "바다", "물고기", "水中", "海",
                                                             "submarin*", "bajo el agua", "bajo del mar", "océano*",
                                                             "mar", "pez", "peces", "sous-marin*", "sous l'eau", "mer",
                                                             "poisson*", "subaquátic*", "debaixo d'água",
                                                             "debaixo da água", "peixe*", "под водой", "подводн*",
                                                             "океан*", "море", "рыб*", "pod wodą", "podwodn*", "morze",
                                                             "ryb*", "su altı*", "su altında", "okyanus*", "deniz*",
                                                             "balık*", "під водою", "підводн*", "рибк*", "dưới nước",
                                                             "đại dương", "biển", "cá"),
               palette=("#03224c", "#ffd166", "#ef476f", "#06d6a0", "#e0fbfc")),
    ThemeEntry(id="forest", name="Forest", keywords=("forest*", "jungle", "wood*", "bos", "wald", "dschungel",
                                                     "foresta", "giungla", "森林", "丛林", "叢林", "숲", "정글", "森", "ジャングル",
                                                     "bosque*", "selva*", "forêt*", "floresta*", "лес", "лесу", "лесн*",
                                                     "джунгл*", "w lesie", "lesie", "leśn*", "dżungl*", "orman*",
                                                     "cangıl*", "ліс", "лісі", "лісов*", "rừng", "rừng rậm"),
               palette=("#10261a", "#a7c957", "#bc4749", "#f2e8cf", "#f2e8cf")),
    ThemeEntry(id="desert", name="Desert", keywords=("desert*", "sand*", "woestijn", "wüste", "deserto", "沙漠", "사막",
                                                     "砂漠", "desierto*", "désert*", "пустын*", "pustyni*", "pustynia",
                                                     "çöl*", "пустел*", "sa mạc"),
               palette=("#f4d58d", "#bf0603", "#708d81", "#001427", "#001427")),
    ThemeEntry(id="retro", name="Retro", keywords=("retro", "pixel*", "8-bit", "8bit", "arcade", "复古", "復古", "像素",
                                                   "레트로", "픽셀", "レトロ", "ドット", "rétro", "ретро", "пиксел*", "піксел*",
                                                   "piksel*", "аркад*", "arkad*", "cổ điển", "điện tử thùng"),
               palette=("#000000", "#ffffff", "#ff004d", "#ffec27", "#29adff")),
    ThemeEntry(id="candy", name="Candy", keywords=("candy", "sweet*", "snoep*", "süß*", "süssigkeit*", "dolc*",
                                                   "caramell*", "糖果", "甜", "사탕", "달콤", "お菓子", "スイーツ", "dulce*",
                                                   "golosina*", "caramelo*", "bonbon*", "sucré*", "confiseri*", "doce*",
                                                   "doces", "конфет*", "сладк*", "słodycz*", "słodk*", "cukierk*",
                                                   "şeker*", "tatlı*", "цукерк*", "солодк*", "kẹo", "ngọt"),
               palette=("#fff0f6", "#ff70a6", "#70d6ff", "#ffd670", "#5a189a")),
    ThemeEntry(id="spooky", name="Spooky", keywords=("halloween", "spooky", "ghost*", "haunted", "spook*", "griezel*",
                                                     "gruselig*", "gespenst*", "fantasm*", "spettrale", "万圣节", "萬聖節",
                                                     "鬼", "幽灵", "幽靈", "할로윈", "유령", "ハロウィン", "おばけ", "幽霊", "fantasma*",
                                                     "embrujad*", "terror*", "fantôme*", "hanté*", "effrayant*",
                                                     "assombrad*", "призрак*", "привидени*", "хэллоуин", "жутк*",
                                                     "duch*", "upiorn*", "nawiedzon*", "hayalet*", "perili",
                                                     "cadılar bayramı", "привид*", "моторош*", "геловін", "ma quái",
                                                     "hồn ma", "con ma", "kinh dị"),
               palette=("#1a0f1f", "#ff7518", "#9d4edd", "#c7f464", "#f5f5f5")),
    ThemeEntry(id="winter", name="Winter", keywords=("winter*", "snow*", "ice", "icy", "frozen", "christmas", "sneeuw",
                                                     "ijs", "kerst*", "schnee", "eis", "weihnacht*", "inverno", "neve",
                                                     "ghiaccio", "natale", "冬", "雪", "冰", "圣诞", "聖誕", "겨울", "얼음",
                                                     "크리스마스", "クリスマス", "invierno", "nieve", "hielo", "navidad*",
                                                     "hiver*", "neige*", "glace", "noël", "gelo", "natal", "зим*",
                                                     "снег*", "снеж*", "лёд", "лед", "ледян*", "рождеств*", "новогод*",
                                                     "zim*", "śnieg*", "śnież*", "lód", "lodow*", "święta", "kış*",
                                                     "kar", "buz", "buzlu", "yılbaşı", "noel", "сніг*", "сніж*",
                                                     "крижан*", "різдв*", "mùa đông", "tuyết", "băng", "giáng sinh"),
               palette=("#e8f1f8", "#1d3557", "#e63946", "#a8dadc", "#1d3557")),
    ThemeEntry(id="lava", name="Lava", keywords=("lava", "fire", "volcano*", "vuur", "vulkaan", "feuer", "vulkan",
                                                 "fuoco", "vulcan*", "火山", "岩浆", "岩漿", "火", "용암", "화산", "溶岩", "炎",
                                                 "fuego", "volcán*", "lave", "feu", "volcan*", "fogo", "vulcão",
                                                 "vulcões", "лава", "лавы", "огонь", "огн*", "вулкан*", "ogień",
                                                 "ognia", "ognist*", "wulkan*", "lav", "ateş*", "yanardağ*", "volkan*",
                                                 "вогонь", "вогн*", "dung nham", "núi lửa", "lửa"),
               palette=("#1b0b0b", "#ffba08", "#d00000", "#faa307", "#fff3e0")),
    ThemeEntry(id="mono", name="Monochrome", keywords=("monochrome", "black and white", "black-and-white", "noir",
                                                       "zwart-wit", "zwart wit", "schwarz-weiß", "schwarzweiß",
                                                       "bianco e nero", "黑白", "흑백", "白黒", "モノクロ", "blanco y negro",
                                                       "noir et blanc", "preto e branco", "чёрно-бел*", "черно-бел*",
                                                       "czarno-biał*", "siyah beyaz", "siyah-beyaz", "чорно-біл*",
                                                       "đen trắng", "monocromo", "monochrom*", "монохром*", "tek renk"),
               palette=("#111111", "#f5f5f5", "#888888", "#cccccc", "#f5f5f5")),
)

DEFAULT_THEME = ThemeEntry(id="default", name="Default", keywords=(),
                           palette=("#1b1f3a", "#4cc9f0", "#f72585", "#ffd166", "#ffffff"))

COLOURS: tuple[ColourEntry, ...] = (
    ColourEntry(id="red", hex="#e63946", keywords=("red", "rood", "rode", "rot", "rote", "roten", "rosso", "rossa",
                                                   "rossi", "rosse", "红", "紅", "빨간", "빨강", "레드", "赤", "レッド", "rojo",
                                                   "roja", "rojos", "rojas", "rouge*", "vermelh*", "красн*", "czerwon*",
                                                   "kırmızı*", "червон*", "đỏ")),
    ColourEntry(id="blue", hex="#3a86ff", keywords=("blue", "blauw", "blauwe", "blau", "blaue", "blu", "azzurr*", "蓝",
                                                    "藍", "파란", "파랑", "블루", "青", "ブルー", "azul", "azules", "bleu",
                                                    "bleue", "bleus", "bleues", "синий", "синим", "синей", "синего",
                                                    "синие", "голуб*", "niebiesk*", "mavi*", "синій", "синя", "синім",
                                                    "сині", "блакитн*", "xanh dương", "xanh lam", "xanh da trời")),
    ColourEntry(id="green", hex="#2dc653", keywords=("green", "groen", "groene", "grün", "grüne", "verde", "verdi", "绿",
                                                     "綠", "초록", "녹색", "그린", "緑", "グリーン", "verdes", "vert", "verte",
                                                     "verts", "vertes", "зелён*", "зелен*", "zielon*", "yeşil*",
                                                     "xanh lá")),
    ColourEntry(id="yellow", hex="#ffd60a", keywords=("yellow", "geel", "gele", "gelb", "gelbe", "giall*", "黄", "黃",
                                                      "노란", "노랑", "옐로", "黄色", "イエロー", "amarill*", "jaune*", "amarel*",
                                                      "жёлт*", "желт*", "żółt*", "sarı*", "жовт*", "vàng")),
    ColourEntry(id="orange", hex="#fb8500", keywords=("orange", "oranje", "arancion*", "橙", "오렌지", "주황", "オレンジ",
                                                      "naranja", "orange*", "laranja", "оранжев*", "pomarańczow*",
                                                      "turuncu*", "помаранчев*", "màu cam")),
    ColourEntry(id="purple", hex="#8338ec", keywords=("purple", "violet", "paars", "paarse", "lila", "violett*",
                                                      "viola", "紫", "보라", "퍼플", "パープル", "morad*", "violeta", "violet*",
                                                      "pourpre", "roxo", "roxa", "фиолетов*", "пурпурн*", "fioletow*",
                                                      "purpurow*", "mor", "фіолетов*", "tím")),
    ColourEntry(id="pink", hex="#ff5fa2", keywords=("pink", "roze", "rosa", "粉红", "粉紅", "핑크", "분홍", "ピンク", "rosado",
                                                    "rosada", "rose", "roses", "розов*", "różow*", "pembe*", "рожев*",
                                                    "hồng")),
    ColourEntry(id="cyan", hex="#00d1d1", keywords=("cyan", "turquoise", "turkoois", "türkis", "turchese", "青色", "청록",
                                                    "シアン", "cian", "turquesa", "ciano", "бирюзов*", "turkusow*",
                                                    "camgöbeği", "turkuaz", "бірюзов*", "xanh ngọc")),
    ColourEntry(id="gold", hex="#ffc300", keywords=("gold", "golden", "goud", "gouden", "goldene*", "oro", "dorat*",
                                                    "金色", "황금", "금색", "ゴールド", "dorado", "dorada", "doré", "dorée",
                                                    "dourado", "dourada", "ouro", "золот*", "złot*", "altın*")),
    ColourEntry(id="white", hex="#f8f9fa", keywords=("white", "wit", "witte", "weiß", "weiße", "bianc*", "白色", "흰",
                                                     "하얀", "白い", "ホワイト", "blanco", "blanca", "blanc", "blanche",
                                                     "branco", "branca", "бел*", "biał*", "beyaz*", "білий", "біла",
                                                     "білим", "біле", "білі", "білого", "trắng")),
    ColourEntry(id="black", hex="#111111", keywords=("black", "zwart", "zwarte", "schwarz*", "nero", "nera", "黑色", "검은",
                                                     "검정", "黒い", "ブラック", "negro", "negra", "noir", "noire", "preto",
                                                     "preta", "чёрн*", "черн*", "czarn*", "siyah*", "чорн*", "đen")),
)

#: a round without a clock: the runtime plays it in every genre (the builder drops a genre's default clock)
NO_TIME_LIMIT = ("no time limit", "no timer", "untimed", "without a timer", "without time limit", "without the timer",
                 "no more timer", "no more time limit", "remove the timer", "remove the time limit", "turn off the timer",
                 "disable the timer", "get rid of the timer", "kein timer", "timer entfernen", "geen tijdslimiet",
                 "zonder tijdslimiet", "geen timer", "ohne zeitlimit", "kein zeitlimit", "ohne timer",
                 "senza limite di tempo", "senza timer", "不限时", "不限時", "没有时间限制", "沒有時間限制",
                 "시간 제한 없이", "제한 시간 없이", "時間制限なし", "制限時間なし", "sin límite de tiempo",
                 "sin temporizador", "sin reloj", "sans limite de temps", "sans chrono", "sans minuteur",
                 "sem limite de tempo", "sem cronômetro", "sem tempo limite", "без ограничения времени",
                 "без лимита времени", "без таймера", "bez limitu czasu", "bez ograniczenia czasu", "bez timera",
                 "süre sınırı olmadan", "süre sınırı yok", "süresiz", "zamanlayıcı olmadan", "без обмеження часу",
                 "без ліміту часу", "không giới hạn thời gian", "không tính giờ", "bỏ giới hạn thời gian")
NO_CLOCK = "no time limit"
#: extras the shared runtime gives every game, whatever its folder declares
RUNTIME_EXTRAS = (NO_CLOCK,)
#: extras a game has that the builder turns on only when asked (config.js): the rest a game always has
SWITCHABLE_EXTRAS = ("sound",)

EXTRAS: tuple[ExtraEntry, ...] = (
    ExtraEntry(id=NO_CLOCK, keywords=NO_TIME_LIMIT),
    ExtraEntry(id="combo bonus", keywords=("combo*", "kombo*", "连击", "連擊", "连锁", "連鎖", "콤보", "コンボ", "комбо", "kombo",
                                           "chuỗi combo", "liên hoàn")),
    ExtraEntry(id="power-ups", keywords=("power-up*", "powerup*", "power up*", "bonus item*", "potenziament*", "道具",
                                         "强化", "強化", "파워업", "아이템", "パワーアップ", "アイテム", "potenciador*",
                                         "des bonus", "bonusy", "bonusami", "bonusów", "bonusem", "bonificaci*", "bônus", "бонус*", "усилени*",
                                         "wzmocnieni*", "güçlendir*", "посилен*", "vật phẩm",
                                         "tăng sức mạnh")),
    ExtraEntry(id="high score", keywords=("high score*", "highscore*", "high-score*", "best score", "leaderboard",
                                          "record", "punteggio massimo", "最高分", "排行榜", "최고 점수", "최고점수", "ハイスコア", "最高得点",
                                          "récord", "puntuación máxima", "meilleur score", "classement", "recorde",
                                          "pontuação máxima", "рекорд*", "таблица рекордов", "najlepszy wynik",
                                          "ranking*", "rekor*", "en yüksek skor", "таблиця рекордів", "điểm cao",
                                          "kỷ lục", "bảng xếp hạng")),
    ExtraEntry(id="sound", keywords=("sound*", "music", "audio", "sfx", "geluid*", "muziek", "musik", "suon*", "musica",
                                     "音效", "音乐", "音樂", "声音", "聲音", "사운드", "소리", "음악", "サウンド", "音楽", "効果音", "sonido*",
                                     "música", "musique", "som", "звук*", "музык*", "dźwięk*", "muzyk*", "ses efekt*",
                                     "sesler*", "sesli", "müzik*", "музик*", "âm thanh", "nhạc")),
    ExtraEntry(id="particles", keywords=("particle*", "explosion*", "sparkle*", "deeltje*", "partikel*", "explosie*",
                                         "particell*", "esplosion*", "粒子", "爆炸", "파티클", "폭발", "パーティクル", "爆発",
                                         "partícula*", "explosi*", "particule*", "частиц*", "взрыв*", "cząstecz*",
                                         "cząstk*", "eksplozj*", "wybuch*", "parçacık*", "patlama*", "частинк*",
                                         "вибух*", "hạt", "vụ nổ", "nổ tung")),
    ExtraEntry(id="screen shake", keywords=("screen shake", "screenshake", "shake", "schud*", "wackel*", "tremolio",
                                            "震动", "震動", "흔들림", "画面揺れ", "振動", "temblor de pantalla", "sacudida*",
                                            "tremblement d'écran", "secousse*", "tremor de tela", "тряск*",
                                            "тряска экрана", "wstrząs*", "ekran sarsıntısı", "sarsıntı*", "трясіння",
                                            "rung màn hình", "rung lắc")),
    ExtraEntry(id="boss", keywords=("boss*", "eindbaas", "endgegner", "首领", "首領", "보스", "ボス", "jefe final", "jefe*",
                                    "chefão", "chefe*", "босс*", "босом", "бос", "trùm*", "trùm cuối")),
    ExtraEntry(id="shield", keywords=("shield*", "schild*", "scudo", "scudi", "护盾", "護盾", "방패", "실드", "シールド", "escudo*",
                                      "bouclier*", "щит*", "tarcz*", "kalkan*", "khiên", "lá chắn")),
    ExtraEntry(id="double jump", keywords=("double jump", "dubbele sprong", "doppelsprung", "doppio salto", "二段跳",
                                           "이단 점프", "더블 점프", "二段ジャンプ", "doble salto", "double saut", "pulo duplo",
                                           "salto duplo", "двойной прыжок", "podwójny skok", "çift zıplama",
                                           "подвійний стрибок", "nhảy đôi")),
    # twists no embedded game plays: named, so "pong for two players" is not a PASS for pong against the computer
    ExtraEntry(id="two-player mode", keywords=("two players", "two-player", "two player", "2 players", "2-player", "2 player",
                                           "multiplayer", "multi-player", "local multiplayer", "co-op", "coop mode",
                                           "cooperative", "split screen", "split-screen", "against a friend",
                                           "against your friend", "pvp", "hotseat", "twee spelers", "2 spelers",
                                           "tegen een vriend", "zwei spieler", "2 spieler", "beiden spieler",
                                           "beide spieler", "mehrspieler", "gegen einen freund", "due giocatori",
                                           "2 giocatori", "multigiocatore", "contro un amico", "dos jugadores",
                                           "2 jugadores", "multijugador", "contra un amigo", "deux joueurs", "2 joueurs",
                                           "multijoueur", "contre un ami", "dois jogadores", "2 jogadores",
                                           "multijogador", "contra um amigo", "два игрока", "двух игроков", "2 игрока",
                                           "мультиплеер", "для двоих", "вдвоём", "вдвоем", "два гравці", "двох гравців",
                                           "2 гравці", "мультиплеєр", "для двох", "удвох", "dwóch graczy", "dwaj gracze",
                                           "2 graczy", "wieloosobow*", "iki oyuncu*", "2 oyuncu*",
                                           "çok oyunculu", "hai người chơi", "2 người chơi", "nhiều người chơi",
                                           "双人", "两个玩家", "两名玩家", "雙人", "兩個玩家", "兩名玩家", "多人游戏", "多人遊戲",
                                           "2인용", "2인 플레이", "두 명이", "멀티플레이", "2人プレイ", "二人プレイ", "ふたりで", "2人で", "二人で",
                                           "マルチプレイ", "協力プレイ")),
    ExtraEntry(id="gravity flip", keywords=("gravity flip*", "flip gravity", "flips gravity", "flipping gravity",
                                            "flipped gravity", "reverse gravity", "reversed gravity", "gravity reverses",
                                            "gravity switch*", "switch gravity", "switches gravity",
                                            "flip the gravity", "flips the gravity", "reverse the gravity",
                                            "reverses the gravity", "invert* gravity", "invert* the gravity",
                                            "inverted gravity", "gravity invert*", "anti-gravity", "antigravity", "zwaartekracht omdraai*",
                                            "schwerkraft umkehr*", "umgekehrte schwerkraft", "gravità invertita",
                                            "inverti la gravità", "gravedad invertida", "invierte la gravedad",
                                            "gravité inversée", "inverse la gravité", "gravidade invertida",
                                            "inverte a gravidade", "инверсия гравитации", "переворачивает гравитацию",
                                            "обратная гравитация", "odwrócona grawitacja", "odwraca grawitację",
                                            "yerçekimi ters", "ters yerçekimi", "інверсія гравітації",
                                            "обернена гравітація", "đảo ngược trọng lực", "重力反转", "反转重力", "重力反轉",
                                            "反轉重力", "중력 반전", "重力反転")),
    ExtraEntry(id="3D", keywords=("3d", "3-d", "three-dimensional", "three dimensional", "virtual reality", "vr",
                                  "dreidimensional*", "driedimensionaal", "tridimensional*", "tridimensionnel*",
                                  "трёхмерн*", "трехмерн*", "trójwymiarow*", "üç boyutlu", "тривимірн*", "ba chiều",
                                  "三维", "三維", "立体", "3차원")),
    ExtraEntry(id="hexagonal grid", keywords=("hexagon*", "hex grid", "hex tiles", "hex board", "zeshoek*", "sechseck*",
                                              "esagon*", "hexágono*", "hexagonal*", "hexagone*", "шестиугольн*",
                                              "sześciokąt*", "heksagon*", "altıgen*", "шестикутн*", "lục giác", "六边形",
                                              "六角形", "六邊形", "육각형")),
    ExtraEntry(id="upgrades", keywords=("upgrade*", "shop", "shops", "in-game store", "skill tree*", "perk*",
                                        "verbetering*", "winkeltje", "verbesserung*", "aufrüst*", "miglioramenti",
                                        "negozio", "mejora*", "tienda", "amélioration*", "boutique", "melhoria*", "loja",
                                        "улучшени*", "прокачк*", "магазин*", "покращенн*", "ulepszeni*", "sklep*",
                                        "yükseltme*", "mağaza*", "nâng cấp", "cửa hàng", "升级", "升級", "商店",
                                        "업그레이드", "상점", "アップグレード", "ショップ")),
    # whole words, not "bomb*": Spanish bomberos and Portuguese bombeiros are firefighters
    ExtraEntry(id="bombs", keywords=("bomb", "bombs", "bombing", "bom", "bommen", "bombe", "bomben", "bombes", "bomba",
                                     "bombas", "bomby", "bombami", "bombalar*", "бомб*", "炸弹", "炸彈", "폭탄",
                                     "爆弾", "ボム")),
    ExtraEntry(id="wrap-around edges", keywords=("wrap around", "wraps around", "wrapping around", "wrap-around",
                                                 "wraparound", "screen wrap*", "wrap the screen", "wraps the screen",
                                                 "other side of the screen", "opposite side of the screen",
                                                 "andere kant van het scherm", "anderen seite des bildschirms",
                                                 "andere seite des bildschirms", "altro lato dello schermo",
                                                 "lato opposto dello schermo", "otro lado de la pantalla",
                                                 "lado opuesto de la pantalla", "autre côté de l'écran",
                                                 "côté opposé de l'écran", "outro lado da tela", "lado oposto da tela",
                                                 "outro lado do ecrã", "другой стороне экрана",
                                                 "противоположной стороне экрана", "другой стороны экрана",
                                                 "іншому боці екрана", "протилежному боці екрана", "іншого боку екрана",
                                                 "drugiej stronie ekranu", "przeciwnej stronie ekranu",
                                                 "drugiej strony ekranu", "ekranın diğer tarafı*", "ekranın öbür tarafı*",
                                                 "phía bên kia màn hình", "从另一边出来", "從另一邊出來", "屏幕循环",
                                                 "画面循环", "畫面循環", "화면 반대편", "反対側から出", "反対側に出")),
    ExtraEntry(id="passing through walls", keywords=("pass through walls", "passes through walls", "passing through walls",
                                                     "pass through the walls", "passes through the walls",
                                                     "go through walls", "goes through walls", "go through the walls",
                                                     "goes through the walls", "move through walls", "moves through walls",
                                                     "walk through walls", "walks through walls", "no walls",
                                                     "without walls", "wall-less", "door muren heen", "door de muren heen",
                                                     "geen muren", "zonder muren", "durch wände geht", "durch die wände geht",
                                                     "durch wände gehen", "durch die wände gehen", "keine wände",
                                                     "ohne wände", "attraversa i muri", "attraversare i muri",
                                                     "senza muri", "senza pareti", "atravesar paredes",
                                                     "atraviesa las paredes", "sin paredes", "sin muros",
                                                     "traverse les murs", "traverser les murs", "sans murs",
                                                     "atravessa as paredes", "atravessar paredes", "sem paredes",
                                                     "сквозь стены", "без стен", "крізь стіни", "без стін",
                                                     "przechodzi przez ściany", "przechodzić przez ściany", "bez ścian",
                                                     "duvarlardan geç*", "duvarsız", "duvarların içinden", "xuyên tường",
                                                     "không có tường", "穿墙", "穿牆", "没有墙", "沒有牆", "无墙", "無牆",
                                                     "벽 통과", "벽을 통과", "벽 없는", "벽이 없는", "壁抜け",
                                                     "壁を通り抜け", "壁なし", "壁のない")),
    ExtraEntry(id="multiball", keywords=("multiball", "multi-ball", "multiple balls", "several balls", "many balls",
                                         "meerdere ballen", "mehrere bälle", "più palline", "più palle",
                                         "palline multiple", "varias bolas", "varias pelotas", "múltiples bolas",
                                         "múltiples pelotas", "plusieurs balles", "multi-balles", "multiballe*",
                                         "várias bolas", "múltiplas bolas", "несколько мячей", "несколько шаров",
                                         "несколько шариков", "мультишар", "кілька м'ячів", "кілька кульок",
                                         "wiele piłek", "kilka piłek", "kilka kulek", "birden fazla top", "çoklu top",
                                         "nhiều bóng", "nhiều quả bóng", "多球", "多个球", "多個球", "멀티볼",
                                         "여러 개의 공", "공 여러 개", "マルチボール", "複数のボール", "ボールが増え")),
    ExtraEntry(id="hold piece", keywords=("hold piece*", "hold a piece", "hold queue", "hold box", "hold slot",
                                          "hold feature", "hold function", "swap piece*", "hold-functie",
                                          "blok vasthouden", "hold-funktion", "stein halten", "funzione hold",
                                          "tieni il pezzo", "guardar pieza", "reservar pieza", "pieza guardada",
                                          "pièce en réserve", "garder une pièce", "réserve de pièce", "guardar peça",
                                          "segurar peça", "peça reservada", "отложить фигуру", "удержание фигуры",
                                          "відкласти фігуру", "przechowaj klocek", "schowek na klocek",
                                          "parça sakla*", "parçayı sakla*", "giữ khối", "暂存", "暫存", "保留方块",
                                          "保留方塊", "홀드 기능", "ホールド機能", "ホールド枠")),
    ExtraEntry(id="ghost piece", keywords=("ghost piece*", "ghost block*", "ghost tetromino*", "shadow piece*",
                                           "landing shadow", "landing preview", "drop preview",
                                           "spookblok", "schaduwblok", "geisterstein", "schattenstein",
                                           "pezzo fantasma", "ombra del pezzo", "pieza fantasma", "sombra de la pieza",
                                           "pièce fantôme", "ombre de la pièce", "peça fantasma", "sombra da peça",
                                           "призрачная фигура", "тень фигуры", "примарна фігура", "тінь фігури",
                                           "klocek widmo", "cień klocka", "hayalet parça", "parçanın gölgesi",
                                           "khối bóng ma", "幽灵方块", "幽靈方塊", "落点预览", "落點預覽", "影子方块",
                                           "고스트 블록", "고스트 피스", "ゴーストブロック", "ゴーストピース", "落下地点")),
    ExtraEntry(id="undo", keywords=("undo*", "take back a move", "take moves back", "rewind*", "ongedaan maken",
                                    "terugdraaien", "rückgängig", "zug zurück", "zurückspulen", "annulla la mossa",
                                    "annullare la mossa", "riavvolg*", "deshacer", "deshace", "rebobin*",
                                    "annuler le coup", "annuler le dernier coup", "revenir en arrière", "rembobin*",
                                    "desfazer", "voltar jogada", "отмена хода", "отменить ход", "отмену хода",
                                    "перемотк*", "скасувати хід", "скасування ходу", "cofnij ruch", "cofanie ruchu",
                                    "cofnąć ruch", "geri al*", "hoàn tác", "撤销", "撤銷", "悔棋", "悔步", "回退",
                                    "되돌리기", "무르기", "실행 취소", "アンドゥ", "一手戻", "元に戻す", "巻き戻")),
    ExtraEntry(id="wall jump", keywords=("wall jump*", "wall-jump*", "walljump*", "wall slide*", "muursprong*",
                                         "wandsprung", "wandsprünge", "salto sul muro", "salto dal muro",
                                         "salto de pared", "salto en la pared", "saut mural", "sauts muraux",
                                         "rebond sur les murs", "pulo na parede", "salto na parede", "прыжок от стены",
                                         "прыжки от стен", "стрибок від стіни", "стрибки від стін", "skok od ściany",
                                         "skoki od ścian", "duvar zıplama*", "nhảy tường", "蹬墙跳", "踢墙跳", "蹬牆跳",
                                         "벽 점프", "벽점프", "壁ジャンプ", "壁蹴り")),
    ExtraEntry(id="grappling hook", keywords=("grappling hook*", "grapple*", "grappling", "enterhaken", "greifhaken",
                                              "enterhaak", "grijphaak", "rampino", "rampini", "gancho de agarre",
                                              "garfio", "grappin*", "gancho de escalada", "arpéu", "крюк-кошк*",
                                              "кошка-крюк", "абордажный крюк", "гак-кішк*", "hak z liną",
                                              "linka z hakiem", "kancalı halat", "tırmanma kancası", "móc kéo",
                                              "dây móc", "钩爪", "鉤爪", "钩索", "鉤索", "抓钩", "抓鉤", "갈고리",
                                              "그래플링", "グラップリング", "フックショット", "ワイヤーアクション")),
    ExtraEntry(id="level editor", keywords=("level editor", "map editor", "song editor", "editor", "level builder",
                                            "level maker", "make your own levels", "create your own levels",
                                            "build your own levels", "design your own levels", "leveleditor",
                                            "eigen levels", "eigene level", "editor de niveles", "éditeur*",
                                            "редактор*", "edytor*", "editör*", "trình chỉnh sửa", "tạo màn chơi",
                                            "编辑器", "編輯器", "关卡编辑", "關卡編輯", "에디터", "편집기", "エディタ*")),
    ExtraEntry(id="checkpoints", keywords=("checkpoint*", "save point*", "kontrollpunkt*", "speicherpunkt*",
                                           "punti di controllo", "punto di controllo", "punto de control",
                                           "puntos de control", "point de contrôle", "points de contrôle",
                                           "ponto de controle", "pontos de controle", "чекпоинт*", "контрольные точки", "контрольная точка", "контрольных точек",
                                           "чекпойнт*", "контрольні точки", "punkty kontrolne", "punkt kontrolny",
                                           "punktów kontrolnych", "kontrol noktası", "kontrol noktaları", "điểm lưu",
                                           "điểm kiểm tra", "检查点", "檢查點", "存档点", "存檔點", "체크포인트",
                                           "チェックポイント", "中間ポイント")),
    ExtraEntry(id="slow motion", keywords=("slow motion", "slow-mo", "slowmo", "bullet time", "time slows",
                                           "slow down time", "slows down time", "slow time", "zeitlupe",
                                           "al rallentatore", "rallenta il tempo", "cámara lenta", "ralentiza el tiempo",
                                           "tiempo bala", "au ralenti", "ralentit le temps", "ralentir le temps",
                                           "câmera lenta", "câmara lenta", "desacelera o tempo", "замедление времени",
                                           "замедлить время", "замедляет время", "слоу-мо", "уповільнення часу",
                                           "сповільнення часу", "zwolnione tempo", "spowolnienie czasu",
                                           "spowalnia czas", "ağır çekim", "zamanı yavaşlat*", "quay chậm",
                                           "làm chậm thời gian", "慢动作", "慢動作", "子弹时间", "子彈時間", "时间变慢",
                                           "時間變慢", "슬로우 모션", "슬로모션", "スローモーション", "バレットタイム")),
    # the player shooting: a shooter's, a bubble shooter's, a tower defense's towers' and a slingshot's play;
    # "flappy bird but you can shoot" is another game (verbs and guns only: lasers and bullets are often dodged)
    ExtraEntry(id="shooting", keywords=("shoot", "shoots", "shooting", "shoot at", "gun", "guns", "handgun*",
                                        "schiet", "schieten", "schiet op", "schießen", "schießt", "schiessen",
                                        "schiesst", "ballern", "ballert", "sparare", "spara", "sparando", "disparar",
                                        "dispara", "disparando", "tirer sur", "tire sur", "tirer des", "atirar",
                                        "atira", "atirando", "стрелять", "стреляет", "стреляя", "стрельб*",
                                        "strzelać", "strzela", "strzelanie", "ateş et*", "ateş ed*", "стріляти",
                                        "стріляє", "стріляючи", "bắn", "射击", "射擊", "开枪", "開槍", "쏘는", "쏠 수",
                                        "쏘기", "사격", "撃つ", "撃て", "射撃", "発砲")),
    # enemies that hunt the player down: the maze game's ghosts and the hungry hole's rival have it, no other
    ExtraEntry(id="chasing enemies", keywords=("chase you", "chases you", "chasing you", "chase the player",
                                               "chases the player", "chasing the player", "chased by", "hunt you",
                                               "hunts you", "hunting you", "hunted by", "follow you", "follows you",
                                               "following you", "come after you", "comes after you", "coming after you",
                                               "pursue you", "pursues you", "pursued by",
                                               "achtervolgen je", "achtervolgt je", "achtervolgd door", "verfolgen dich",
                                               "verfolgt dich", "verfolgt von", "jagen dich", "jagt dich",
                                               "ti inseguono", "ti insegue", "inseguito da", "inseguita da",
                                               "te persiguen", "te persigue", "perseguido por", "perseguida por",
                                               "te poursuivent", "te poursuit", "vous poursuivent", "vous poursuit",
                                               "poursuivi par", "poursuivie par", "te pourchassent", "te perseguem",
                                               "te persegue", "perseguem você", "perseguido por", "преследуют",
                                               "преследует", "гонятся за", "gonią cię", "goni cię", "ścigają cię",
                                               "ściga cię", "seni kovala*", "peşinden gel*", "переслідують",
                                               "переслідує", "женуться за", "đuổi theo bạn", "truy đuổi", "追你",
                                               "追赶", "追趕", "追着你", "追著你", "쫓아오", "쫓아와", "추격", "追いかけてくる",
                                               "追ってくる")),
    ExtraEntry(id="story", keywords=("story", "storyline", "story mode", "storytelling", "narrative",
                                     "cutscene*", "cut-scene*", "dialogue*", "verhaal", "verhaallijn", "handlung",
                                     "storia", "trama", "modo historia", "histoire", "scénario", "história", "enredo",
                                     "сюжет*", "fabuł*", "hikaye*", "hikâye*", "cốt truyện", "câu chuyện", "剧情",
                                     "劇情", "故事", "스토리", "ストーリー", "物語")),
    ExtraEntry(id="levels get harder", keywords=("harder", "difficulty", "moeilijker", "schwieriger", "schwerer",
                                                 "più difficile", "越来越难", "越來越難", "难度", "難度", "어려워", "난이도", "難しく",
                                                 "難易度", "más difícil", "dificultad", "plus difficile", "difficulté",
                                                 "mais difícil", "dificuldade", "сложнее", "сложност*", "trudniej",
                                                 "trudność", "poziom trudności", "zorlaş*", "daha zor", "zorluk",
                                                 "складніше", "складніст*", "khó hơn", "độ khó")),
)

#: knob extras ("name:value") the builder reads as multipliers
KNOBS = ("speed", "text_scale")


def _entry(g: Genre) -> CatalogueEntry:
    return CatalogueEntry(
        id=g.id, name=g.name, names=dict(g.names), strong=g.all_words("strong"), weak=g.all_words("weak"),
        verbs=g.all_words("verbs"), famous=g.famous, core_loop=g.core_loop,
        controls=g.controls,
        win=g.win, lose=g.lose, rules=g.rules, references=g.references, defaults=dict(g.defaults),
        themes=dict(g.themes), idle_safe=g.idle_safe, survive_win=g.survive_win,
        rule_numbers=g.rule_numbers, counts=g.counts, extras=g.extras, draws=g.draws, can_draw=g.can_draw, hero=g.hero)


@lru_cache(maxsize=4)
def _view(reg: Registry) -> dict[str, CatalogueEntry]:
    return {g.genre.id: _entry(g.genre) for g in reg.genres}


def genres() -> tuple[CatalogueEntry, ...]:
    """Every registered genre as a catalogue entry, in registry order."""
    return tuple(_view(registry()).values())


def genre_ids() -> tuple[str, ...]:
    return registry().ids()


def entry(genre: str) -> CatalogueEntry:
    """The catalogue entry of a genre; KeyError names the known genres."""
    try:
        return _view(registry())[genre]
    except KeyError:
        pass
    raise KeyError(f"unknown genre {genre!r}; known: {', '.join(genre_ids())}")


def theme(theme_id: str) -> ThemeEntry:
    for t in THEMES:
        if t.id == theme_id:
            return t
    return DEFAULT_THEME


def number_support() -> dict[str, dict[str, tuple[int, int] | None]]:
    """The stated numbers each game honours, and the range it can play (None: any value the spec allows).
    A number a genre does not honour is reported as not built, never silently dropped; the game's test
    hook reports each one (lives, levels, target, timeLeft, movesLeft, grid, speed, levelTimeLeft) so QA
    can check it."""
    return {g.genre.id: g.genre.supported() for g in registry().genres}


def __getattr__(name: str) -> object:
    # GENRES and NUMBER_SUPPORT read the registry when used, so a root's [genres] paths count
    if name == "GENRES":
        return genres()
    if name == "NUMBER_SUPPORT":
        return number_support()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def evidence_id(genre: str) -> str:
    """The id research evidence uses to cite a catalogue entry."""
    return f"catalogue:{genre}"
