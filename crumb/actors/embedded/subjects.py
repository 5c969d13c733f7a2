"""Things a pitch asks to see (cats, zombies, pizza), and finding them in a pitch.

Data, and one pure reader. Knowing them is what keeps "tetris but with cats" from a PASS for a game with
no cat in it: the Planner reads genres, numbers, themes and extras, and a noun that is none of those was
dropped without a word. A genre's own words ("bird" in flappy) and the things its game draws
(Genre.draws: slingshot's pigs) are its own, so only the rest is named as not built (fidelity.py).
Keyword syntax as in the catalogue: a trailing `*` matches any word that starts with it; CJK keywords
match inside words, so longer ones come first (熊猫 is a panda before 猫 is a cat).
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from crumb.actors.embedded import refusal
from crumb.actors.embedded.text import consume, longest_first


class Subject(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    keywords: tuple[str, ...]


class SubjectSaid(BaseModel):
    """A subject a text asks for, with its words as written and where they start."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    subject: str
    said: str
    start: int
    refused: bool = False


def _s(id: str, *keywords: str) -> Subject:
    return Subject(id=id, keywords=keywords)


SUBJECTS: tuple[Subject, ...] = (
    # animals
    _s("cats", "cat", "cats", "kitten*", "kitty", "kitties", "een kat", "de kat", "katten", "poes", "poezen", "katze*",
       "kätzchen", "gatto", "gatti", "gattin*", "gato", "gatos", "gatit*", "gatinh*", "des chats", "les chats",
       "un chat", "chaton*", "кошк*", "кот", "коты", "котов", "котами", "котик*", "котят*", "котён*", "kot",
       "koty", "kotów", "kotami", "kotek", "kotki", "kotkami", "kedi*", "кішк*", "кіт", "коти", "котів",
       "кошеня*", "mèo", "猫", "貓", "고양이", "ネコ", "ねこ"),
    _s("dogs", "dog", "dogs", "puppy", "puppies", "doggo*", "hond", "honden", "hondje*", "hund", "hunde",
       "hündchen", "cani", "cagnolin*", "perro", "perros", "perrit*", "chien", "chiens", "chiot*", "cachorro*",
       "cão", "cães", "собак*", "собачк*", "щен*", "psami", "psów", "piesek", "pieski", "köpek*", "собака",
       "собаки", "цуцен*", "con chó", "chó", "小狗", "狗狗", "狗", "강아지", "개들", "犬", "いぬ", "イヌ"),
    _s("birds", "bird", "birds", "vogel", "vogels", "vögel", "uccell*", "pájaro*", "aves", "oiseau*", "pássaro*",
       "птиц*", "ptak", "ptaki", "ptakami", "kuş", "kuşlar*", "птах*", "chim", "小鸟", "鸟", "小鳥", "鳥", "새들", "작은 새"),
    _s("frogs", "frog", "frogs", "kikker*", "frosch", "frösche", "rana", "rane", "ranas", "grenouille*", "sapo",
       "sapos", "лягушк*", "żab*", "kurbağa*", "жаб*", "con ếch", "ếch", "青蛙", "蛙", "개구리", "カエル",
       "frogger", "фроггер", "프로거", "フロッガー"),  # the game's name is its hero's (fidelity._drawable)
    _s("ducks", "ducks", "duckling*", "a duck", "the duck", "rubber duck*", "eend", "eenden", "ente", "enten",
       "anatr*", "pato", "patos", "patit*", "canard*", "утк*", "утят*", "kaczk*", "ördek*", "качк*", "con vịt",
       "vịt", "鸭子", "小鸭", "鴨子", "小鴨", "오리", "アヒル", "あひる"),
    _s("chickens", "chicken", "chickens", "chick", "chicks", "hen", "hens", "kippen", "kuiken*", "huhn",
       "hühner", "küken", "gallin*", "pollo", "pollos", "pollit*", "poule*", "poussin*", "galinha*", "pintinho*",
       "куриц*", "кур", "цыпл*", "kurczak*", "kura", "kury", "tavuk*", "civciv*", "курк*", "курча*", "con gà",
       "gà", "小鸡", "母鸡", "小雞", "母雞", "닭", "병아리", "ニワトリ", "にわとり", "ひよこ"),
    _s("rabbits", "rabbit", "rabbits", "bunny", "bunnies", "konijn*", "hase", "hasen", "kaninchen", "coniglio",
       "conigli", "conej*", "lapin*", "coelho*", "кролик*", "заяц", "зайц*", "зайк*", "królik*", "zając*",
       "tavşan*", "кроли*", "con thỏ", "thỏ", "兔子", "小兔", "토끼", "ウサギ", "うさぎ"),
    _s("bears", "bear", "bears", "teddy", "beren", "bär", "bären", "orso", "orsi", "oso", "osos", "urso",
       "ursos", "медвед*", "мишк*", "niedźwied*", "miś", "misie", "ayı", "ayılar*", "ведмед*", "con gấu", "gấu",
       "熊", "곰", "クマ", "くま"),
    _s("pandas", "panda*", "панд*", "gấu trúc", "熊猫", "熊貓", "판다", "パンダ"),
    _s("penguins", "penguin*", "pinguïn*", "pinguin*", "pingüino*", "manchot*", "pingouin*", "пингвин*",
       "pingwin*", "penguen*", "пінгвін*", "chim cánh cụt", "企鹅", "企鵝", "펭귄", "ペンギン"),
    _s("monkeys", "monkey*", "aap", "apen", "affe", "affen", "scimmi*", "singe*", "macaco*", "обезьян*", "małp*",
       "maymun*", "мавп*", "con khỉ", "khỉ", "猴子", "猴", "원숭이", "サル"),
    _s("horses", "horse", "horses", "pony", "ponies", "paard*", "pferd*", "cavall*", "caball*", "cheval",
       "chevaux", "лошад*", "коня", "пони", "koń", "konie", "koni", "кінь", "коні", "con ngựa", "ngựa", "小马",
       "马儿", "骏马", "小馬", "馬兒", "駿馬", "말들", "ウマ"),
    _s("pigs", "pig", "pigs", "piglet*", "varken*", "schwein*", "ferkel", "maial*", "cerdo*", "cerdit*",
       "cochon*", "porco*", "porquinho*", "свин*", "поросят*", "świni*", "śwink*", "domuz*", "con lợn", "con heo", "lợn", "heo", "小猪", "猪", "小豬", "豬", "돼지", "ブタ", "ぶた"),
    _s("cows", "cow", "cows", "koe", "koeien", "kuh", "kühe", "mucca", "mucche", "vaca", "vacas", "vache*",
       "коров*", "krow*", "krowa", "inek*", "корів", "корова", "con bò", "bò sữa", "奶牛", "母牛", "乳牛", "소들", "젖소",
       "ウシ"),
    _s("sheep", "sheep", "lamb", "lambs", "schaap", "schapen", "schaf", "schafe", "pecor*", "oveja*", "mouton*",
       "ovelha*", "овц*", "овеч*", "owc*", "owieczk*", "koyun*", "вівц*", "con cừu", "cừu", "绵羊", "小羊", "綿羊",
       "양들", "ヒツジ", "ひつじ"),
    _s("mice", "mice", "rat", "rats", "muizen", "mäuse", "ratte*", "topi", "topolin*", "ratones", "ratoncit*",
       "ratos", "ratinho*", "крыс*", "myszy", "szczur*", "щур*", "con chuột", "老鼠", "ネズミ", "ねずみ", "생쥐",
       "fareler*"),
    _s("bees", "bees", "bumblebee*", "bijen", "biene*", "hummel*", "abeja*", "abeille*", "abelha*",
       "пчел*", "pszczoł*", "arı", "arılar*", "бджол*", "con ong", "蜜蜂", "벌들", "꿀벌", "ハチ", "a bee", "the bee",
       "honeybee*"),
    _s("butterflies", "butterfl*", "vlinder*", "schmetterling*", "farfall*", "mariposa*", "papillon*",
       "borboleta*", "бабочк*", "motyl*", "kelebek*", "метелик*", "con bướm", "bươm bướm", "蝴蝶", "나비", "チョウ", "蝶"),
    _s("spiders", "spider", "spiders", "spinne", "ragn*", "araña*", "araignée*", "aranha*", "паук*", "pająk*",
       "pająki", "örümcek*", "павук*", "con nhện", "nhện", "蜘蛛", "거미", "クモ"),
    _s("sharks", "shark*", "haai*", "squal*", "tiburón*", "tiburones", "requin*", "tubarão", "tubarões", "акул*",
       "rekin*", "köpekbalığı*", "cá mập", "鲨鱼", "鯊魚", "상어", "サメ"),
    _s("turtles", "turtle*", "tortoise*", "schildpad*", "schildkröte*", "tartarug*", "tortuga*", "tortue*",
       "черепах*", "żółw*", "kaplumbağa*", "con rùa", "rùa", "乌龟", "烏龜", "海龟", "海龜", "거북", "亀"),
    _s("foxes", "fox", "foxes", "fuchs", "füchse", "volpe", "volpi", "zorro*", "renard*", "raposa*", "lis",
       "lisy", "lisek", "tilki*", "con cáo", "cáo", "狐狸", "여우", "キツネ", "きつね", "лиса", "лисы", "лису", "лисой",
       "лисиц*", "лисён*"),
    _s("owls", "owl", "owls", "uil", "uilen", "eule*", "gufo", "gufi", "búho*", "lechuza*", "hibou*",
       "chouette*", "coruja*", "sowa", "sowy", "baykuş*", "cú mèo", "猫头鹰", "貓頭鷹", "부엉이", "올빼미", "フクロウ", "сова",
       "совы", "сову", "совой", "совят*", "сови"),
    _s("dinosaurs", "dinosaur*", "dinos", "raptor*", "dinosaurus*", "dinosaurier*", "dinosauri*", "dinosaurio*",
       "dinosaure*", "dinossauro*", "динозавр*", "dinozaur*", "dinozor*", "khủng long", "恐龙", "恐龍", "공룡", "恐竜"),
    _s("dragons", "dragon*", "draak", "draken", "drache*", "drago", "draghi", "dragón*", "dragones", "dragão",
       "dragões", "дракон*", "ejderha*", "con rồng", "rồng", "龙", "龍", "드래곤", "용들", "ドラゴン", "竜", "smok", "smoki",
       "smoka", "smokiem"),
    _s("unicorns", "unicorn*", "eenhoorn*", "einhorn*", "unicorni", "unicornio*", "licorne*", "unicórnio*",
       "единорог*", "jednoroż*", "tek boynuzlu at*", "єдиноріг*", "kỳ lân", "独角兽", "獨角獸", "유니콘", "ユニコーン"),
    _s("octopuses", "octopus*", "octopi", "inktvis*", "krake*", "polp*", "pulpo*", "pieuvre*", "poulpe*",
       "осьминог*", "ośmiornic*", "ahtapot*", "восьминог*", "bạch tuộc", "章鱼", "章魚", "문어", "タコ"),
    _s("elephants", "elephant*", "olifant*", "elefant*", "éléphant*", "слон*", "słoń", "słoni*", "filler", "filleri",
       "fillerin", "fillerle", "bir fil", "con voi", "chú voi", "đàn voi", "大象", "小象", "象群", "코끼리", "ゾウ", "ぞうさん"),
    _s("lions", "lion", "lions", "lioness*", "lion cub*", "leeuw*", "löwe*", "löwin*", "leone", "leoni", "leonessa*",
       "leoncin*", "león", "leones", "leona", "leonas", "leoncit*", "lionne*", "lionceau*", "leão", "leões", "leoa*",
       "лев", "львы", "льва", "львов", "львом", "львами", "львёнок", "львенок", "львят*", "львиц*", "lew", "lwy", "lwa",
       "lwem", "lwami", "lwic*", "lwiątk*", "aslan*", "леви", "лева", "левів", "левом", "левами", "левиц*", "левен*",
       "sư tử", "狮", "獅", "사자", "ライオン"),
    _s("tigers", "tiger*", "tijger*", "tigre*", "tigri", "tigrott*", "тигр*", "tygrys*", "kaplan*", "con hổ", "chú hổ",
       "hổ con", "cọp", "老虎", "虎", "호랑이", "タイガー"),
    _s("wolves", "wolf", "wolves", "wolfs", "wolven", "wölfe", "lupo", "lupi", "lupacchiott*", "lobo", "lobos",
       "lobezn*", "loup", "loups", "louveteau*", "волк*", "волчат*", "волчиц*", "волчон*", "wilk*", "kurt", "kurtlar*",
       "вовк*", "вовченя*", "con sói", "sói", "狼", "늑대", "オオカミ"),
    _s("giraffes", "giraf*", "jirafa*", "жираф*", "żyraf*", "zürafa*", "hươu cao cổ", "长颈鹿", "長頸鹿", "기린", "キリン"),
    _s("whales", "whale*", "walvis*", "wale", "walfisch*", "blauwal*", "buckelwal*", "ein wal", "einen wal", "der wal",
       "den wal", "dem wal", "balena*", "ballena*", "baleine*", "baleia*", "кит", "киты", "кита", "китов", "китом",
       "китами", "китёнок", "китенок", "кити", "китів", "wieloryb*", "balina*", "cá voi", "鲸", "鯨", "고래", "クジラ"),
    _s("dolphins", "dolphin*", "dolfijn*", "delfin*", "delfín", "dauphin*", "golfinho*", "дельфин*", "yunus*",
       "дельфін*", "cá heo", "海豚", "돌고래", "イルカ"),
    _s("crabs", "crab", "crabs", "krab*", "krabbe*", "granchi*", "cangrejo*", "crabe*", "caranguejo*", "краб*",
       "yengeç*", "con cua", "cua", "螃蟹", "蟹", "꽃게", "크랩", "カニが", "カニを", "カニの", "カニと", "カニたち",
       "カニさん"),
    _s("snails", "snail", "snails", "slak", "slakken", "slakje*", "schnecke", "schnecken", "lumaca", "lumache",
       "lumachin*", "caracol", "caracoles", "caracóis", "escargot*", "улитк*", "улиток", "ślimak*", "salyangoz*",
       "равлик*", "слимак*", "ốc sên", "蜗牛", "蝸牛", "달팽이", "カタツムリ", "かたつむり"),
    _s("ants", "ant", "ants", "anthill*", "mier", "mieren", "ameise*", "formica", "formiche", "hormiga*", "fourmi*",
       "formiga*", "муравь*", "муравей", "mrówk*", "mrówek", "karınca*", "мурах*", "con kiến", "đàn kiến", "tổ kiến",
       "蚂蚁", "螞蟻", "개미", "蟻", "アリたち", "アリが", "アリを", "アリの", "アリさん"),
    # characters
    _s("zombies", "zombie*", "zombi*", "зомби", "зомбі", "xác sống", "僵尸", "殭屍", "좀비", "ゾンビ"),
    _s("robots", "robot*", "robô*", "робот*", "người máy", "机器人", "機器人", "로봇", "ロボット"),
    _s("pirates", "pirate*", "piraat*", "piraten", "pirat*", "pirata*", "пират*", "korsan*", "hải tặc", "cướp biển", "海盗", "海盜", "해적", "海賊"),
    _s("ninjas", "ninja*", "ниндз*", "ніндз*", "忍者", "닌자", "ニンジャ"),
    _s("knights", "knight*", "ridder*", "ritter", "cavaliere", "cavalieri", "caballero*", "chevalier*",
       "cavaleiro*", "рыцар*", "rycerz*", "şövalye*", "лицар*", "hiệp sĩ", "骑士", "騎士", "ナイト"),
    _s("wizards", "wizard*", "witch", "witches", "mage", "mages", "sorcer*", "tovenaar*", "heks", "heksen",
       "zauberer", "hexe", "hexen", "mago", "maghi", "strega", "streghe", "bruja*", "sorcière*", "magicien*",
       "bruxa*", "feiticeir*", "волшебник*", "колдун*", "ведьм*", "czarodziej*", "czarownic*", "büyücü*",
       "cadı*", "чарівник*", "відьм*", "phù thủy", "巫师", "女巫", "巫師", "마법사", "마녀", "魔法使い", "魔女"),
    _s("princesses", "princess*", "prinses*", "prinzessin*", "principess*", "princesa*", "princesse*",
       "принцесс*", "księżniczk*", "prenses*", "принцес*", "công chúa", "公主", "공주", "お姫様", "姫"),
    _s("monsters", "monster*", "monstr*", "монстр*", "чудовищ*", "potwor*", "canavar*", "quái vật", "怪物", "怪兽",
       "怪獸", "몬스터", "괴물", "モンスター", "怪獣"),
    _s("vampires", "vampire*", "vampier*", "vampir*", "vampiro*", "вампир*", "wampir*", "вампір*", "ma cà rồng",
       "吸血鬼", "뱀파이어", "ヴァンパイア"),
    _s("superheroes", "superhero*", "super hero*", "superheld*", "supereroe*", "superhéroe*", "super-héros",
       "superhéros", "super-herói*", "супергеро*", "superbohater*", "süper kahraman*", "siêu anh hùng", "超级英雄",
       "超級英雄", "슈퍼히어로", "スーパーヒーロー"),
    _s("skeletons", "skeleton*", "skelet*", "scheletr*", "esqueleto*", "squelette*", "скелет*", "szkielet*",
       "iskelet*", "bộ xương", "骷髅", "骷髏", "해골", "ガイコツ", "骸骨"),
    _s("cowboys", "cowboy*", "vaquero*", "ковбо*", "kowboj*", "kovboy*", "cao bồi", "牛仔", "카우보이", "カウボーイ"),
    _s("aliens", "alien*", "extraterrestr*", "buitenaards*", "außerirdisch*", "ausserirdisch*", "инопланетян*",
       "пришелец", "пришельц*", "kosmit*", "kosmici", "uzaylı*", "інопланетян*", "прибулець", "прибульц*",
       "người ngoài hành tinh", "外星人", "外星", "외계인", "エイリアン", "宇宙人"),
    _s("astronauts", "astronaut*", "spaceman", "spacemen", "cosmonaut*", "ruimtevaarder*", "астронавт*", "космонавт*",
       "kosmonaut*", "astronot*", "phi hành gia", "宇航员", "宇航員", "航天员", "航天員", "太空人", "우주비행사",
       "우주 비행사", "宇宙飛行士"),
    _s("mermaids", "mermaid*", "merman", "mermen", "zeemeermin*", "meermin*", "meerjungfrau*", "sirena", "sirenas",
       "sirenett*", "sirène*", "sereia*", "русалк*", "syrenk*", "syrena", "syreny", "deniz kızı*", "denizkızı*",
       "nàng tiên cá", "美人鱼", "美人魚", "人鱼", "人魚", "인어", "マーメイド"),
    _s("fairies", "fairy", "fairies", "pixie*", "feeën", "feetje", "feetjes", "feen", "eine fee", "die fee", "fatina",
       "fatine", "una fata", "la fata", "le fate", "hada", "hadas", "hadita*", "fée", "fées", "fada", "fadas",
       "fadinha*", "фея", "феи", "фей", "фею", "феей", "феями", "феечк*", "wróżk*", "peri", "periler*", "феї", "феєю",
       "nàng tiên", "tiên nữ", "bà tiên", "仙女", "仙子", "요정", "妖精", "フェアリー"),
    _s("elves", "elves", "elven", "an elf", "the elf", "elfs", "elfje", "elfjes", "elfe", "elfen", "elfo", "elfi",
       "elfos", "elfes", "эльф*", "elfy", "elfów", "elfami", "elfik*", "elfler*", "ельф*", "yêu tinh", "精灵", "精靈",
       "엘프", "エルフ"),
    _s("goblins", "goblin*", "kobold*", "duende*", "trasgo*", "gobelin*", "гоблин*", "гоблін*", "quỷ lùn", "哥布林",
       "地精", "고블린", "ゴブリン"),
    _s("soldiers", "soldier*", "trooper*", "soldaat", "soldaatje*", "soldat*", "soldado*", "солдат*", "солдатик*",
       "żołnierz*", "asker*", "вояк*", "người lính", "lính", "士兵", "军人", "軍人", "小兵", "군인", "병사", "兵士", "兵隊",
       "ソルジャー"),
    _s("police", "police", "policeman", "policemen", "policewoman", "cop", "cops", "politie*", "polizei*", "polizist*",
       "polizi*", "policía*", "policia*", "policier*", "flic", "flics", "polícia*", "полиц*", "полицейск*", "policj*", "polis",
       "polisler*", "поліц*", "поліцейськ*", "cảnh sát", "công an", "警察", "警车", "警車", "경찰", "警官", "ポリス"),
    _s("firefighters", "firefighter*", "fire fighter*", "fireman", "firemen", "brandweer*", "feuerwehr*", "pompier*",
       "bombero*", "bombeiro*", "пожарн*", "strażak*", "itfaiye*", "пожежн*", "пожежник*", "lính cứu hỏa", "消防员",
       "消防員", "소방관", "消防士"),
    _s("chefs", "chef", "chefs", "kok", "koks", "koch", "köche", "köchin*", "chefkoch*", "cuoco", "cuochi", "cuoca",
       "cocinero*", "cuisinier*", "cozinheir*", "повар*", "kucharz*", "aşçı*", "кухар*", "đầu bếp", "厨师", "廚師",
       "大厨", "大廚", "요리사", "셰프", "シェフ", "料理人", "コックさん"),
    # vehicles
    _s("cars", "car", "cars", "auto's", "autos", "macchin*", "coche*", "carro", "carros", "voiture*", "машин*",
       "автомобил*", "samochod*", "samochód", "araba*", "автомобіл*", "ô tô", "xe hơi", "汽车", "汽車", "자동차", "クルマ",
       "自動車"),
    _s("trains", "trains", "locomotive*", "trein", "treinen", "eisenbahn*", "lokomotive*", "treno", "treni", "tren", "trenes", "trem",
       "trens", "поезд*", "паровоз*", "pociąg*", "trenler*", "потяг*", "tàu hỏa", "火车", "火車", "기차", "電車", "列車",
       "a train", "the train", "steam train*", "train set*"),
    _s("planes", "plane", "planes", "airplane*", "aeroplane*", "jets", "vliegtuig*", "flugzeug*", "aere*",
       "avión", "aviones", "avion", "avions", "avião", "aviões", "самолёт*", "самолет*", "samolot*", "uçak*",
       "літак*", "máy bay", "飞机", "飛機", "비행기", "飛行機"),
    _s("boats", "boat*", "sailboat*", "boten", "schiff", "schiffe", "barca", "barche", "barco*", "bateau*",
       "лодк*", "łód*", "łodzi*", "tekne*", "човен*", "човн*", "con thuyền", "chiếc thuyền", "小船", "帆船", "船只", "船隻", "배들", "보트", "ボート"),
    _s("tanks", "tanks", "a tank", "carro armato", "panzer", "carri armati", "tanque*", "char d'assaut", "chars d'assaut",
       "танк*", "czołg*", "xe tăng", "坦克", "탱크", "戦車", "tanklar*"),
    _s("helicopters", "helicopter*", "hubschrauber*", "elicotter*", "helicóptero*", "hélicoptère*", "вертолёт*",
       "вертолет*", "helikopter*", "гелікоптер*", "trực thăng", "直升机", "直升機", "헬리콥터", "ヘリコプター"),
    _s("trucks", "truck*", "lorry", "lorries", "vrachtwagen*", "lastwagen*", "camion*", "camión", "грузовик*",
       "ciężarówk*", "kamyon*", "вантажівк*", "xe tải", "卡车", "卡車", "트럭", "トラック"),
    _s("rockets", "rocket*", "raketten", "raketje*", "een raket", "de raket", "rakete*", "razzo", "razzi", "cohete*", "fusée*", "foguete*", "ракета", "ракеты",
       "ракету", "ракетой", "ракет", "ракетами", "rakieta", "rakiety", "rakietę", "rakietą", "rakietami", "roket*",
       "ракети", "ракетою", "tên lửa", "火箭", "로켓", "ロケット"),
    _s("spaceships", "spaceship*", "space ship*", "starship*", "spacecraft*", "space shuttle*", "ruimteschip*",
       "ruimteschepen", "raumschiff*", "astronav*", "navicell*", "nave spaziale", "navi spaziali", "nave espacial",
       "naves espaciales", "vaisseau*", "naves espaciais", "espaçonave*", "космический корабл*",
       "космические корабл*", "космического корабл*", "звездолёт*", "звездолет*", "statek kosmiczn*",
       "statki kosmiczn*", "statku kosmiczn*", "statkiem kosmiczn*", "uzay gemi*", "космічний корабель",
       "космічні кораблі", "космічного корабля", "космічним кораблем", "зореліт*", "tàu vũ trụ", "phi thuyền",
       "宇宙飞船", "宇宙飛船", "飞船", "飛船", "太空船", "우주선", "宇宙船", "スペースシップ"),
    _s("ufos", "ufo", "ufos", "ufo's", "flying saucer*", "vliegende schotel*", "fliegende untertasse*", "disco volante",
       "dischi volanti", "ovni*", "óvni*", "platillo volante", "platillos volantes", "soucoupe volante",
       "soucoupes volantes", "disco voador", "discos voadores", "нло", "летающая тарелка", "летающие тарелки",
       "летающую тарелку", "latający spodek", "latające spodki", "uçan daire*", "літаюча тарілка", "літаючі тарілки",
       "đĩa bay", "飞碟", "飛碟", "비행접시", "유에프오", "ユーフォー", "空飛ぶ円盤"),
    _s("bikes", "bike", "bikes", "bicycle*", "bmx", "fiets*", "fahrrad*", "fahrräder", "bici", "bicis", "biciclett*",
       "bicicleta*", "vélo*", "bicyclette*", "велосипед*", "rower*", "bisiklet*", "xe đạp", "自行车", "自行車", "单车",
       "單車", "脚踏车", "腳踏車", "자전거", "自転車"),
    _s("motorcycles", "motorcycle*", "motorbike*", "motor bike*", "motorfiets*", "motorrad*", "motorräder", "moto",
       "motos", "motocicl*", "motocyclette*", "мотоцикл*", "motocykl*", "motosiklet*", "xe máy", "xe mô tô", "摩托车",
       "摩托車", "오토바이", "バイク", "オートバイ"),
    # food
    _s("pizza", "pizza*", "пицц*", "піц*", "披萨", "披薩", "피자", "ピザ"),
    _s("donuts", "donut*", "doughnut*", "ciambell*", "rosquill*", "beignet*", "rosquinha*", "пончик*", "pączk*",
       "pączek", "bánh vòng", "甜甜圈", "도넛", "ドーナツ"),
    _s("burgers", "burger*", "hamburger*", "hamburguesa*", "hambúrguer*", "бургер*", "гамбургер*", "bánh mì kẹp",
       "汉堡", "漢堡", "햄버거", "ハンバーガー"),
    _s("cupcakes", "cupcake*", "muffin*", "капкейк*", "babeczk*", "bánh nướng nhỏ", "纸杯蛋糕", "杯子蛋糕", "컵케이크",
       "カップケーキ"),
    _s("sushi", "sushi", "суши", "суші", "寿司", "壽司", "초밥", "스시", "すし"),
    _s("cookies", "cookie*", "biscuit*", "koekje*", "keks", "kekse", "plätzchen", "biscott*", "galleta*", "biscoito*",
       "bolacha*", "печенье", "печенья", "печеньк*", "печенек", "ciastk*", "ciasteczk*", "kurabiye*", "bisküvi*",
       "печив*", "печенюшк*", "bánh quy", "饼干", "餅乾", "曲奇", "쿠키", "クッキー", "ビスケット"),
    _s("cakes", "cake", "cakes", "taart*", "kuchen", "torte", "torten", "torta", "tortas", "tortin*", "tarta", "tartas",
       "un pastel", "el pastel", "pasteles", "gâteau*", "gateau*", "bolo", "bolos", "торт", "торты", "торта", "тортов",
       "тортом", "тортик*", "tort", "torty", "tortu", "tortem", "tortów", "kek", "kekler*", "pastalar*", "yaş pasta",
       "торти", "тортів", "bánh kem", "bánh ngọt", "bánh sinh nhật", "蛋糕", "케이크", "ケーキ"),
    _s("ice cream", "ice cream*", "ice-cream*", "icecream*", "gelato", "gelati", "popsicle*", "ice lolly", "ijsje*",
       "ijsco*", "eiscreme", "speiseeis", "eistüte*", "eiskugel*", "eis am stiel", "un helado", "el helado",
       "los helados", "heladit*", "crème glacée", "crèmes glacées", "une glace", "des glaces", "cornet de glace",
       "cornets de glace", "sorvete*", "picolé*", "морожен*", "lody", "lodów", "lodami", "dondurma*", "морозив*", "kem",
       "cây kem", "冰淇淋", "冰激凌", "雪糕", "아이스크림", "アイスクリーム", "ソフトクリーム"),
    _s("fruit", "fruit", "fruits", "vrucht*", "obst", "früchte", "frucht", "frutta", "frutti", "frutto", "fruta",
       "frutas", "фрукт*", "owoc*", "meyve*", "trái cây", "hoa quả", "水果", "과일", "果物", "フルーツ"),
    _s("apples", "apple", "apples", "een appel", "de appel", "appels", "appeltje*", "apfel", "äpfel", "mela", "mele", "manzana*",
       "pomme", "des pommes", "les pommes", "maçã", "maçãs", "яблок*", "яблочк*", "jabłk*", "jabłek", "jabłuszk*", "elma", "elmalar*",
       "elmayı", "яблук*", "quả táo", "trái táo", "táo", "苹果", "蘋果", "사과", "りんご", "リンゴ", "林檎"),
    _s("bananas", "banan*", "банан*", "muz", "muzlar*", "chuối", "香蕉", "바나나", "バナナ"),
    _s("watermelons", "watermelon*", "melon*", "watermeloen*", "meloen*", "wassermelone*", "anguria*", "cocomer*",
       "sandía*", "melón", "melones", "pastèque*", "melancia*", "melão", "melões", "арбуз*", "дыня", "дыни", "arbuz*",
       "karpuz*", "kavun*", "кавун*", "диня", "дині", "dưa hấu", "dưa lưới", "西瓜", "哈密瓜", "甜瓜", "수박", "멜론",
       "スイカ", "すいか", "メロン"),
    _s("tacos", "taco", "tacos", "taco's", "тако", "塔可", "墨西哥卷饼", "墨西哥捲餅", "타코", "タコス"),
    _s("hot dogs", "hot dog*", "hotdog*", "perrito caliente", "perritos calientes", "cachorro-quente",
       "cachorros-quentes", "хот-дог*", "хотдог*", "sosisli*", "bánh mì kẹp xúc xích", "热狗", "熱狗", "핫도그",
       "ホットドッグ"),
)


#: words that hold a subject's word but ask to see nothing: read first, as no subject ("a piece of cake" is
#: easy; a French "police plus grande" is a bigger font)
IDIOMS: tuple[str, ...] = ("piece of cake", "snail's pace", "snail pace", "snail-paced", "fairy tale*", "fairytale*",
                           "bear in mind", "pomme de terre", "pommes de terre", "pommes frites", "peri masal*",
                           "táo bạo", "táo bón", "police plus*", "plus grande police", "plus petite police",
                           "police d'écriture", "police de caractère*", "taille de police", "taille de la police",
                           "agrandis la police", "agrandir la police", "réduis la police", "réduire la police",
                           "change la police", "changer la police", "police du texte", "hipster whale")


@lru_cache(maxsize=1)
def _keywords() -> list[tuple[str, str]]:
    """(keyword, subject id), longest first: a longer keyword consumes its span; an idiom's id is ""."""
    return longest_first([*((kw, s.id) for s in SUBJECTS for kw in dict.fromkeys(s.keywords)),
                          *((kw, "") for kw in IDIOMS)])


def subject_keywords() -> tuple[str, ...]:
    """Every keyword the reader takes words by, the idioms' too: another reader's shorter word inside one stays."""
    return tuple(kw for kw, _ in _keywords())


def find_subjects(text: str, language: str | None = None) -> list[SubjectSaid]:
    """The subjects normalized text names, in the text's order, each once: asked for, or refused ("snake
    without mice") where no word of it is asked for. Blank what other readers took (genre names, themes,
    extras) first."""
    found: dict[str, SubjectSaid] = {}
    for _, subject, spans in consume(text, _keywords()):
        for s, e in spans if subject else ():
            said = SubjectSaid(subject=subject, said=text[s:e], start=s, refused=refusal.refused(text, s, e, language))
            had = found.get(subject)
            if had is None or (had.refused, had.start) > (said.refused, said.start):
                found[subject] = said
    return sorted(found.values(), key=lambda s: s.start)


def subject_ids() -> tuple[str, ...]:
    return tuple(s.id for s in SUBJECTS)
