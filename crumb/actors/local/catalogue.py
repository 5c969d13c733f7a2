"""The offline studio's built-in knowledge: one entry per genre the local builder can make, plus
the themes, colours and extras a pitch can name, each with keywords in the eight pitch languages.

Data only (the Planner, researcher and steering read it); keeping it in one place means a new
language or genre is one edit here, not a hunt through the reading code.

Keyword syntax: a plain word matches a whole word (Latin scripts) or a substring (CJK, Hangul,
kana); a trailing `*` matches any word that starts with it ("shoot*" → shooter, shooting).
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

#: language codes a pitch is read in
LANGUAGES = ("en", "nl", "de", "it", "zh-Hans", "zh-Hant", "ko", "ja")


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GenreControls(_Data):
    keys: tuple[str, ...]
    pointer: str
    touch: str


class CatalogueEntry(_Data):
    """A reference game: what it is, how it plays, and the words that name it."""

    id: str = Field(description="the genre name the builder knows")
    name: str
    names: dict[str, str] = Field(default_factory=dict, description="display name per language")
    strong: tuple[str, ...] = Field(description="words that name this genre outright")
    weak: tuple[str, ...] = Field(default=(), description="words that only suggest it")
    core_loop: str
    controls: GenreControls
    win: str
    lose: str
    rules: str
    references: tuple[str, ...]
    defaults: dict[str, float | int | None] = Field(default_factory=dict)
    has_lives: bool = True
    idle_safe: bool = Field(
        default=False, description="waiting without input cannot end the round before its clock does"
    )


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


_ARROWS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")

GENRES: tuple[CatalogueEntry, ...] = (
    CatalogueEntry(
        id="snake",
        name="Snake",
        names={"en": "Snake", "nl": "Slang", "de": "Schlange", "it": "Serpente", "zh-Hans": "贪吃蛇",
               "zh-Hant": "貪食蛇", "ko": "뱀 게임", "ja": "スネーク"},
        strong=("snake*", "slang", "slangen*", "schlange*", "serpent*", "serpente*", "serpentone", "nibbles", "🐍",
                "贪吃蛇", "貪吃蛇", "貪食蛇", "蛇", "뱀", "스네이크", "ヘビ", "へび", "スネーク"),
        weak=("worm*", "tail", "grow", "grows", "longer", "wurm", "verme", "apple*", "apfel", "appel", "mela",
              "苹果", "蘋果", "사과", "りんご", "リンゴ"),
        core_loop="Steer a growing snake around the board to eat food; every bite adds a segment and points.",
        controls=GenreControls(keys=(*_ARROWS, "w", "a", "s", "d"), pointer="click a side of the board to turn that way",
                               touch="swipe to turn"),
        win="Reach the target score, when one is set.",
        lose="Run into a wall or into your own tail.",
        rules="The snake moves one cell per tick in its current direction and cannot reverse. Eating food "
              "grows it by one and scores 10. Hitting a wall or itself ends the round (or costs a life).",
        references=("Snake (Nokia, 1997)", "Blockade (Gremlin, 1976)", "Nibbles (QBasic, 1991)"),
        defaults={"grid": 20, "speed": 8, "lives": 1},
    ),
    CatalogueEntry(
        id="breakout",
        name="Breakout",
        names={"en": "Breakout", "nl": "Steenbreker", "de": "Mauerbrecher", "it": "Spaccamattoni",
               "zh-Hans": "打砖块", "zh-Hant": "打磚塊", "ko": "벽돌 깨기", "ja": "ブロック崩し"},
        strong=("breakout", "arkanoid", "brick breaker", "brickbreaker", "🧱", "break bricks", "bricks", "brick",
                "steenbreker", "bakstenen", "mauerbrecher", "ziegel*", "mattoni", "spaccamattoni",
                "打砖块", "打磚塊", "砖块", "磚塊", "벽돌", "ブロック崩し", "ブロックくずし"),
        weak=("paddle*", "ball", "balls", "wall", "peddel", "schläger", "palla", "pallina", "racchetta", "muur",
              "mauer", "muro", "球", "挡板", "擋板", "패들", "ボール", "パドル"),
        core_loop="Bounce a ball off your paddle to smash a wall of bricks; each brick scores.",
        controls=GenreControls(keys=("ArrowLeft", "ArrowRight", " "), pointer="move the paddle with the mouse; click to launch",
                               touch="drag to move the paddle; tap to launch"),
        win="Clear every brick (or reach the target score).",
        lose="Let the ball fall past the paddle with no lives left.",
        rules="The ball reflects off walls, bricks and the paddle (the hit point steers it). A brick breaks "
              "on one hit and scores 10. Missing the ball costs a life.",
        references=("Breakout (Atari, 1976)", "Arkanoid (Taito, 1986)"),
        defaults={"lives": 3, "levels": 1},
    ),
    CatalogueEntry(
        id="flappy",
        name="Flappy",
        names={"en": "Flappy", "nl": "Fladder", "de": "Flatter", "it": "Svolazzo", "zh-Hans": "飞翔小鸟",
               "zh-Hant": "飛翔小鳥", "ko": "플래피", "ja": "フラッピー"},
        strong=("flappy", "flap*", "🐦", "fladder*", "flatter*", "svolazz*", "像素鸟", "像素鳥", "笨鸟", "笨鳥",
                "飞翔小鸟", "飛翔小鳥", "플래피", "날갯짓", "フラッピー", "羽ばたき", "はばたき"),
        weak=("bird*", "pipe*", "gap*", "vogel*", "buizen", "röhren", "uccell*", "tubi", "鸟", "鳥", "管道",
              "水管", "새가", "새를", "파이프", "とり", "土管"),
        core_loop="Tap to flap through gaps between pipes; every gap passed scores a point.",
        controls=GenreControls(keys=(" ", "ArrowUp"), pointer="click to flap", touch="tap to flap"),
        win="Reach the target score, when one is set.",
        lose="Touch a pipe, the ground or the ceiling.",
        rules="Gravity pulls the bird down; a flap gives it an upward kick. Pipes scroll in from the right "
              "with a gap at a random height; passing one scores 1.",
        references=("Flappy Bird (dotGears, 2013)", "Helicopter Game (2000s)"),
        defaults={"lives": 1, "speed": 1},
    ),
    CatalogueEntry(
        id="runner",
        name="Runner",
        names={"en": "Runner", "nl": "Renner", "de": "Läufer", "it": "Corridore", "zh-Hans": "跑酷",
               "zh-Hant": "跑酷", "ko": "러너", "ja": "ランナー"},
        strong=("runner*", "endless run*", "endless-run*", "auto-run*", "autorun*", "dino", "t-rex", "temple run",
                "renner", "hardloper", "endlosläufer", "läufer", "corridore", "corsa infinita", "跑酷", "无尽奔跑",
                "無盡奔跑", "러너", "달리기", "런 게임", "ランナー", "パルクール", "ランゲーム"),
        weak=("run", "running", "jump over", "obstacle*", "rennen", "rent", "springen", "hindernis*", "corri*",
              "ostacol*", "hindernissen", "跑", "奔跑", "障碍", "障礙", "장애물", "달리는", "走る", "障害物"),
        core_loop="Your runner dashes forward on its own; jump over the obstacles that scroll in.",
        controls=GenreControls(keys=(" ", "ArrowUp", "ArrowDown"), pointer="click to jump", touch="tap to jump"),
        win="Survive until the clock runs out or reach the target score.",
        lose="Hit an obstacle.",
        rules="The world scrolls faster over time. Jumping is the only action; distance scores points.",
        references=("Chrome Dino (Google, 2014)", "Canabalt (2009)", "Temple Run (2011)"),
        defaults={"lives": 1, "speed": 1},
    ),
    CatalogueEntry(
        id="shooter",
        name="Shooter",
        names={"en": "Shooter", "nl": "Schietspel", "de": "Ballerspiel", "it": "Sparatutto", "zh-Hans": "射击",
               "zh-Hant": "射擊", "ko": "슈팅", "ja": "シューティング"},
        strong=("shoot*", "space invaders", "👾", "🔫", "invaders", "asteroids", "shmup", "schiet*", "schieß*", "schiess*",
                "ballerspiel", "spara*", "射击", "射擊", "打飞机", "打飛機", "飞机大战", "飛機大戰", "슈팅", "사격",
                "쏘는", "シューティング", "シューター", "撃つ"),
        weak=("alien*", "laser*", "blast*", "enemy", "enemies", "spaceship*", "ship", "bullet*", "vijand*",
              "feind*", "nemic*", "astronav*", "外星", "敌人", "敵人", "飞船", "飛船", "외계인", "우주선",
              "敵", "宇宙船", "エイリアン"),
        core_loop="Move your ship along the bottom and shoot down the waves of enemies before they reach you.",
        controls=GenreControls(keys=("ArrowLeft", "ArrowRight", " "), pointer="move with the mouse; click to fire",
                               touch="drag to move; tap to fire"),
        win="Reach the target score or clear every wave.",
        lose="Get hit with no lives left, or let the enemies land.",
        rules="Enemies descend in formation and shoot back. Each hit on an enemy scores 10; a hit on the "
              "player costs a life.",
        references=("Space Invaders (Taito, 1978)", "Galaga (Namco, 1981)", "Asteroids (Atari, 1979)"),
        defaults={"lives": 3},
    ),
    CatalogueEntry(
        id="platformer",
        name="Platformer",
        names={"en": "Platformer", "nl": "Platformspel", "de": "Plattformspiel", "it": "Piattaforme",
               "zh-Hans": "平台跳跃", "zh-Hant": "平台跳躍", "ko": "플랫포머", "ja": "プラットフォーマー"},
        strong=("platformer", "platform game", "platforms", "platform", "jumper", "jump and run", "jump 'n' run", "jump'n'run",
                "mario", "platformspel", "plattform*", "piattaform*", "平台跳跃", "平台跳躍", "平台游戏", "平台遊戲",
                "플랫포머", "플랫폼", "プラットフォーマー", "プラットフォーム", "ジャンプアクション"),
        weak=("jump*", "ledge*", "coin*", "spring*", "munten", "münzen", "salta*", "monete", "跳", "金币", "金幣",
              "점프", "동전", "ジャンプ", "コイン"),
        core_loop="Run and jump across platforms, collect coins and reach the flag at the end of each level.",
        controls=GenreControls(keys=("ArrowLeft", "ArrowRight", "ArrowUp", " "), pointer="click to jump",
                               touch="tap the left or right half to move; tap the top to jump"),
        win="Reach the goal of the last level (or the target score).",
        lose="Fall off the world or touch a hazard with no lives left.",
        rules="Gravity, solid platforms, coins worth 10, spikes and pits that cost a life.",
        references=("Super Mario Bros. (Nintendo, 1985)", "Celeste (2018)"),
        defaults={"lives": 3, "levels": 3},
    ),
    CatalogueEntry(
        id="pong",
        name="Pong",
        names={"en": "Pong", "nl": "Pong", "de": "Pong", "it": "Pong", "zh-Hans": "乒乓", "zh-Hant": "乒乓",
               "ko": "퐁", "ja": "ポン"},
        strong=("pong", "ping pong", "🏓", "ping-pong", "table tennis", "tafeltennis", "tischtennis", "tennistavolo",
                "乒乓", "桌球", "퐁", "탁구", "ポン", "卓球"),
        weak=("tennis", "paddle*", "rally", "opponent", "tegenstander", "gegner", "avversario", "球拍", "对手",
              "對手", "상대", "テニス", "相手"),
        core_loop="Bat the ball back past the computer's paddle; every point you win scores.",
        controls=GenreControls(keys=("ArrowUp", "ArrowDown", "w", "s"), pointer="move the paddle with the mouse",
                               touch="drag to move the paddle"),
        win="Reach the target score first.",
        lose="Let the computer reach its target, or run out of lives.",
        rules="The ball speeds up on every return. A ball past a paddle scores for the other side.",
        references=("Pong (Atari, 1972)",),
        defaults={"target_score": 7},
        has_lives=False,
    ),
    CatalogueEntry(
        id="dodge",
        name="Dodge",
        names={"en": "Dodge", "nl": "Ontwijk", "de": "Ausweichen", "it": "Schivata", "zh-Hans": "躲避",
               "zh-Hant": "躲避", "ko": "피하기", "ja": "よけろ"},
        strong=("dodge*", "dodging", "avoid*", "evade", "ontwijk*", "ausweich*", "weich aus", "schiva*", "evita*",
                "躲避", "闪避", "閃避", "躲", "피하기", "피하는", "피해", "회피", "よけ*", "避け", "回避"),
        weak=("falling", "fall", "meteor*", "rain*", "survive", "survival", "vallend*", "overleven", "fallend*",
              "überleb*", "cadono", "sopravviv*", "掉落", "落下", "生存", "떨어지는", "살아남", "降って", "生き残"),
        core_loop="Move left and right to dodge everything falling from the sky; surviving scores points.",
        controls=GenreControls(keys=("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"), pointer="move with the mouse",
                               touch="drag to move"),
        win="Survive until the clock runs out or reach the target score.",
        lose="Get hit with no lives left.",
        rules="Hazards spawn at the top and fall faster over time; every hazard that passes scores 1.",
        references=("Dodge Ball games", "Avoider (Flash era)"),
        defaults={"lives": 3, "time_limit_s": 60},
    ),
    CatalogueEntry(
        id="match3",
        name="Match-3",
        names={"en": "Match-3", "nl": "Drie op een rij", "de": "Drei gewinnt", "it": "Tris di gemme",
               "zh-Hans": "消消乐", "zh-Hant": "消消樂", "ko": "매치3", "ja": "マッチ3"},
        strong=("match 3", "match-3", "💎", "match3", "match three", "match-three", "three in a row", "candy crush",
                "bejeweled", "drie op een rij", "drei gewinnt", "tris", "消消乐", "消消樂", "三消", "매치3",
                "매치 3", "3매치", "マッチ3", "3マッチ"),
        weak=("gem*", "jewel*", "candy", "candies", "swap*", "edelsteen*", "edelstein*", "juwel*", "gemm*",
              "caramell*", "宝石", "寶石", "糖果", "보석", "사탕", "ジュエル"),
        core_loop="Swap neighbouring gems to line up three or more of a kind; matches clear and score.",
        controls=GenreControls(keys=(*_ARROWS, "Enter", " "), pointer="click a gem, then a neighbour to swap",
                               touch="tap a gem, then a neighbour (or swipe)"),
        win="Reach the target score.",
        lose="Run out of moves or time first.",
        rules="Only swaps that make a line of 3+ are allowed. Cleared gems drop and refill; cascades score more.",
        references=("Bejeweled (PopCap, 2001)", "Candy Crush Saga (King, 2012)"),
        defaults={"grid": 8, "moves": 20, "target_score": 1000},
        has_lives=False,
        idle_safe=True,
    ),
    CatalogueEntry(
        id="memory",
        name="Memory",
        names={"en": "Memory", "nl": "Memory", "de": "Memory", "it": "Memory", "zh-Hans": "记忆翻牌",
               "zh-Hant": "記憶翻牌", "ko": "카드 기억", "ja": "神経衰弱"},
        strong=("memory", "concentration", "🃏", "matching pairs", "match pairs", "find the pairs", "pairs", "geheugen*",
                "paren", "gedächtnis*", "paare", "memoria", "coppie", "记忆", "記憶", "翻牌", "配对", "配對",
                "기억력", "짝 맞추기", "짝맞추기", "神経衰弱", "メモリー", "ペア"),
        weak=("card*", "flip*", "kaart*", "karte*", "carte", "carta", "卡片", "카드", "カード", "めくる"),
        core_loop="Flip two cards at a time to find matching pairs; every pair found scores.",
        controls=GenreControls(keys=(*_ARROWS, "Enter", " "), pointer="click a card to flip it",
                               touch="tap a card to flip it"),
        win="Find every pair (or reach the target score).",
        lose="Run out of moves or time first.",
        rules="A matching pair stays open and scores 10; a mismatch flips back after a short look.",
        references=("Concentration (card game)", "Memory (Ravensburger, 1959)"),
        defaults={"grid": 4},
        has_lives=False,
        idle_safe=True,
    ),
    CatalogueEntry(
        id="slide2048",
        name="2048",
        names={"en": "2048", "nl": "2048", "de": "2048", "it": "2048", "zh-Hans": "2048", "zh-Hant": "2048",
               "ko": "2048", "ja": "2048"},
        strong=("2048", "slide the tiles", "sliding tiles", "slide tiles", "merge tiles", "merging tiles",
                "threes", "schuif*", "tegels", "kacheln", "schiebe*", "tessere", "scorri*", "滑块", "滑塊",
                "合并方块", "合併方塊", "타일 합치기", "スライドパズル"),
        weak=("tile*", "merge*", "slide", "sliding", "samenvoegen", "zusammenfügen", "unisci", "数字", "數字",
              "合并", "合併", "타일", "숫자", "タイル"),
        core_loop="Slide every tile in one direction; equal tiles that collide merge and add their value to the score.",
        controls=GenreControls(keys=(*_ARROWS, "w", "a", "s", "d"), pointer="click a side of the board to slide that way",
                               touch="swipe to slide"),
        win="Make a 2048 tile (or reach the target score).",
        lose="No move is left (or moves/time run out).",
        rules="After each move a 2 (sometimes 4) appears in an empty cell. Merges score the new tile's value.",
        references=("2048 (Gabriele Cirulli, 2014)", "Threes! (2014)"),
        defaults={"grid": 4},
        has_lives=False,
        idle_safe=True,
    ),
    CatalogueEntry(
        id="blocks",
        name="Blocks",
        names={"en": "Blocks", "nl": "Blokken", "de": "Blöcke", "it": "Blocchi", "zh-Hans": "俄罗斯方块",
               "zh-Hant": "俄羅斯方塊", "ko": "블록 쌓기", "ja": "落ちものパズル"},
        strong=("tetris", "tetromino*", "falling blocks", "falling block", "blocks", "blokken", "blöcke", "blocchi",
                "俄罗斯方块", "俄羅斯方塊", "方块", "方塊", "테트리스", "블록", "テトリス", "落ちもの"),
        weak=("line*", "rotate", "rows", "clear lines", "lijnen", "reihen", "linee", "rotat*", "消行", "줄", "ライン",
              "ブロック"),
        core_loop="Steer and rotate falling pieces to complete rows; full rows clear and score.",
        controls=GenreControls(keys=(*_ARROWS, " "), pointer="click left/right of the piece to move it, on it to rotate",
                               touch="tap left/right to move, tap the piece to rotate, swipe down to drop"),
        win="Reach the target score, when one is set.",
        lose="The stack reaches the top.",
        rules="Seven tetromino shapes fall one cell per tick, faster each level. Clearing 1/2/3/4 rows scores "
              "100/300/500/800.",
        references=("Tetris (Alexey Pajitnov, 1984)",),
        defaults={"levels": 10},
        has_lives=False,
    ),
    CatalogueEntry(
        id="whack",
        name="Whack-a-Mole",
        names={"en": "Whack-a-Mole", "nl": "Mep de mol", "de": "Hau den Maulwurf", "it": "Acchiappa la talpa",
               "zh-Hans": "打地鼠", "zh-Hant": "打地鼠", "ko": "두더지 잡기", "ja": "モグラたたき"},
        strong=("whack*", "mole*", "🔨", "mol", "mollen", "maulwurf*", "maulwürfe", "talpa", "talpe", "打地鼠", "地鼠",
                "두더지", "モグラ", "もぐら"),
        weak=("hammer", "hole*", "pop up", "pops up", "hamer", "gaten", "löcher", "martello", "buch*", "锤", "錘",
              "洞", "망치", "구멍", "ハンマー", "穴"),
        core_loop="Moles pop out of holes for a moment; hit them before they hide to score.",
        controls=GenreControls(keys=("1", "2", "3", "4", "5", "6", "7", "8", "9"), pointer="click a mole",
                               touch="tap a mole"),
        win="Reach the target score before the clock runs out.",
        lose="The clock runs out first (or too many moles escape).",
        rules="Moles appear at random holes, faster over time. A hit scores 10.",
        references=("Whac-A-Mole (Bob's Space Racers, 1976)",),
        defaults={"time_limit_s": 30, "grid": 3},
        has_lives=False,
    ),
    CatalogueEntry(
        id="clicker",
        name="Clicker",
        names={"en": "Clicker", "nl": "Klikker", "de": "Klicker", "it": "Clicker", "zh-Hans": "点击",
               "zh-Hant": "點擊", "ko": "클리커", "ja": "クリッカー"},
        strong=("clicker", "cookie clicker", "🍪", "idle game", "incremental", "tap as fast", "click as fast", "klikker",
                "klikspel", "klicker", "cliccare", "点击", "點擊", "放置", "클리커", "방치", "クリッカー"),
        weak=("click*", "tap*", "cookie*", "upgrade*", "klik*", "klick*", "tocca", "clicca", "升级",
              "升級", "클릭", "탭", "업그레이드", "クリック", "タップ", "アップグレード"),
        core_loop="Click the big target to earn points; spend them on upgrades that earn more per click.",
        controls=GenreControls(keys=(" ", "Enter"), pointer="click the target", touch="tap the target"),
        win="Reach the target score.",
        lose="The clock runs out first, when the round is timed.",
        rules="Every click scores; upgrades multiply clicks or add points per second.",
        references=("Cookie Clicker (2013)", "Clicker Heroes (2014)"),
        defaults={"target_score": 1000},
        has_lives=False,
        idle_safe=True,
    ),
    CatalogueEntry(
        id="simon",
        name="Simon",
        names={"en": "Simon", "nl": "Simon zegt", "de": "Simon sagt", "it": "Simon dice", "zh-Hans": "西蒙说",
               "zh-Hant": "西蒙說", "ko": "사이먼", "ja": "サイモン"},
        strong=("simon", "simon says", "repeat the sequence", "repeat the pattern", "simon zegt", "simon sagt",
                "simon dice", "西蒙", "记忆序列", "記憶序列", "사이먼", "サイモン"),
        weak=("sequence*", "pattern*", "repeat*", "volgorde", "reeks", "reihenfolge", "sequenz", "muster",
              "sequenza", "ripeti", "顺序", "順序", "序列", "重复", "重複", "순서", "패턴", "順番", "パターン"),
        core_loop="Watch the pads light up in a sequence, then repeat it; each round adds one more step.",
        controls=GenreControls(keys=("1", "2", "3", "4", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"),
                               pointer="click the pads", touch="tap the pads"),
        win="Repeat a sequence of the target length (or reach the target score).",
        lose="Press a wrong pad with no lives left.",
        rules="Four coloured pads; the sequence grows by one after each correct repeat, scoring its length.",
        references=("Simon (Milton Bradley, 1978)",),
        defaults={"lives": 1},
    ),
    CatalogueEntry(
        id="stacker",
        name="Stacker",
        names={"en": "Stacker", "nl": "Stapelaar", "de": "Stapler", "it": "Impilatore", "zh-Hans": "叠叠高",
               "zh-Hant": "疊疊高", "ko": "탑 쌓기", "ja": "タワー積み"},
        strong=("stacker", "stack*", "tower*", "stapel*", "toren*", "turm*", "türme", "impila*", "torre",
                "叠叠高", "疊疊高", "堆叠", "堆疊", "叠塔", "疊塔", "탑 쌓기", "탑쌓기", "쌓기", "積み", "タワー"),
        weak=("drop", "balance", "height", "laten vallen", "fallen lassen", "altezza", "塔", "높이",
              "탑", "高さ", "積む"),
        core_loop="A block slides back and forth; drop it on the stack. Overhangs are cut off, so the blocks shrink.",
        controls=GenreControls(keys=(" ", "Enter"), pointer="click to drop", touch="tap to drop"),
        win="Reach the target height or score.",
        lose="Miss the stack completely.",
        rules="Each placed block scores 1 and speeds up the next; a perfect drop keeps the full width.",
        references=("Stacker (LAI Games, 2004)", "Stack (Ketchapp, 2016)"),
        defaults={"lives": 1},
    ),
)

THEMES: tuple[ThemeEntry, ...] = (
    ThemeEntry(id="neon", name="Neon", keywords=("neon", "glow*", "synthwave", "霓虹", "네온", "ネオン"),
               palette=("#0a0a1a", "#39ff14", "#ff2bd6", "#00e5ff", "#f8f8ff")),
    ThemeEntry(id="pastel", name="Pastel", keywords=("pastel*", "pastell*", "粉彩", "马卡龙", "馬卡龍", "파스텔", "パステル"),
               palette=("#fdf6f0", "#a0c4ff", "#ffadad", "#caffbf", "#5a5a6e")),
    ThemeEntry(id="space", name="Space", keywords=("space", "galax*", "planet*", "stars", "starry", "starfield", "cosmic", "ruimte", "weltall",
                                                    "weltraum", "all'universo", "spazi*", "太空", "宇宙", "星空", "우주",
                                                    "スペース"),
               palette=("#05051a", "#e0e0ff", "#ff6b6b", "#ffd166", "#ffffff")),
    ThemeEntry(id="underwater", name="Underwater",
               keywords=("underwater", "under water", "ocean*", "sea", "fish*", "onderwater", "zee", "vis", "unterwasser",
                         "ozean", "fisch*", "subacque*", "mare", "oceano", "pesc*", "水下", "海底", "海洋", "鱼",
                         "魚", "수중", "바다", "물고기", "水中", "海"),
               palette=("#03224c", "#ffd166", "#ef476f", "#06d6a0", "#e0fbfc")),
    ThemeEntry(id="forest", name="Forest", keywords=("forest*", "jungle", "wood*", "bos", "wald", "dschungel", "foresta",
                                                      "giungla", "森林", "丛林", "叢林", "숲", "정글", "森", "ジャングル"),
               palette=("#10261a", "#a7c957", "#bc4749", "#f2e8cf", "#f2e8cf")),
    ThemeEntry(id="desert", name="Desert", keywords=("desert*", "sand*", "woestijn", "wüste", "deserto", "沙漠", "사막", "砂漠"),
               palette=("#f4d58d", "#bf0603", "#708d81", "#001427", "#001427")),
    ThemeEntry(id="retro", name="Retro", keywords=("retro", "pixel*", "8-bit", "8bit", "arcade", "复古", "復古", "像素",
                                                    "레트로", "픽셀", "レトロ", "ドット"),
               palette=("#000000", "#ffffff", "#ff004d", "#ffec27", "#29adff")),
    ThemeEntry(id="candy", name="Candy", keywords=("candy", "sweet*", "snoep*", "süß*", "süssigkeit*", "dolc*", "caramell*",
                                                    "糖果", "甜", "사탕", "달콤", "お菓子", "スイーツ"),
               palette=("#fff0f6", "#ff70a6", "#70d6ff", "#ffd670", "#5a189a")),
    ThemeEntry(id="spooky", name="Spooky", keywords=("halloween", "spooky", "ghost*", "haunted", "spook*", "griezel*",
                                                      "gruselig*", "gespenst*", "fantasm*", "spettrale", "万圣节", "萬聖節",
                                                      "鬼", "幽灵", "幽靈", "할로윈", "유령", "ハロウィン", "おばけ", "幽霊"),
               palette=("#1a0f1f", "#ff7518", "#9d4edd", "#c7f464", "#f5f5f5")),
    ThemeEntry(id="winter", name="Winter", keywords=("winter*", "snow*", "ice", "icy", "frozen", "christmas", "sneeuw",
                                                      "ijs", "kerst*", "schnee", "eis", "weihnacht*", "inverno", "neve",
                                                      "ghiaccio", "natale", "冬", "雪", "冰", "圣诞", "聖誕", "겨울",
                                                      "얼음", "크리스마스", "クリスマス"),
               palette=("#e8f1f8", "#1d3557", "#e63946", "#a8dadc", "#1d3557")),
    ThemeEntry(id="lava", name="Lava", keywords=("lava", "fire", "volcano*", "vuur", "vulkaan", "feuer", "vulkan",
                                                  "fuoco", "vulcan*", "火山", "岩浆", "岩漿", "火", "용암", "화산",
                                                  "溶岩", "炎"),
               palette=("#1b0b0b", "#ffba08", "#d00000", "#faa307", "#fff3e0")),
    ThemeEntry(id="mono", name="Monochrome", keywords=("monochrome", "black and white", "black-and-white", "noir",
                                                        "zwart-wit", "zwart wit", "schwarz-weiß", "schwarzweiß",
                                                        "bianco e nero", "黑白", "흑백", "白黒", "モノクロ"),
               palette=("#111111", "#f5f5f5", "#888888", "#cccccc", "#f5f5f5")),
)

DEFAULT_THEME = ThemeEntry(id="default", name="Default", keywords=(),
                           palette=("#1b1f3a", "#4cc9f0", "#f72585", "#ffd166", "#ffffff"))

COLOURS: tuple[ColourEntry, ...] = (
    ColourEntry(id="red", hex="#e63946", keywords=("red", "rood", "rode", "rot", "rote", "roten", "rosso", "rossa",
                                                    "rossi", "rosse", "红", "紅", "빨간", "빨강", "레드", "赤", "レッド")),
    ColourEntry(id="blue", hex="#3a86ff", keywords=("blue", "blauw", "blauwe", "blau", "blaue", "blu", "azzurr*", "蓝",
                                                     "藍", "파란", "파랑", "블루", "青", "ブルー")),
    ColourEntry(id="green", hex="#2dc653", keywords=("green", "groen", "groene", "grün", "grüne", "verde", "verdi",
                                                      "绿", "綠", "초록", "녹색", "그린", "緑", "グリーン")),
    ColourEntry(id="yellow", hex="#ffd60a", keywords=("yellow", "geel", "gele", "gelb", "gelbe", "giall*", "黄", "黃",
                                                       "노란", "노랑", "옐로", "黄色", "イエロー")),
    ColourEntry(id="orange", hex="#fb8500", keywords=("orange", "oranje", "arancion*", "橙", "오렌지", "주황",
                                                       "オレンジ")),
    ColourEntry(id="purple", hex="#8338ec", keywords=("purple", "violet", "paars", "paarse", "lila", "violett*", "viola",
                                                       "紫", "보라", "퍼플", "パープル")),
    ColourEntry(id="pink", hex="#ff5fa2", keywords=("pink", "roze", "rosa", "粉红", "粉紅", "핑크", "분홍", "ピンク")),
    ColourEntry(id="cyan", hex="#00d1d1", keywords=("cyan", "turquoise", "turkoois", "türkis", "turchese",
                                                     "青色", "청록", "シアン")),
    ColourEntry(id="gold", hex="#ffc300", keywords=("gold", "golden", "goud", "gouden", "goldene*", "oro", "dorat*",
                                                     "金色", "황금", "금색", "ゴールド")),
    ColourEntry(id="white", hex="#f8f9fa", keywords=("white", "wit", "witte", "weiß", "weiße", "bianc*", "白色", "흰",
                                                      "하얀", "白い", "ホワイト")),
    ColourEntry(id="black", hex="#111111", keywords=("black", "zwart", "zwarte", "schwarz*", "nero", "nera", "黑色",
                                                      "검은", "검정", "黒い", "ブラック")),
)

EXTRAS: tuple[ExtraEntry, ...] = (
    ExtraEntry(id="combo bonus", keywords=("combo*", "kombo*", "连击", "連擊", "连锁", "連鎖", "콤보", "コンボ")),
    ExtraEntry(id="power-ups", keywords=("power-up*", "powerup*", "power up*", "bonus item*", "potenziament*",
                                         "道具", "强化", "強化", "파워업", "아이템", "パワーアップ", "アイテム")),
    ExtraEntry(id="high score", keywords=("high score*", "highscore*", "high-score*", "best score", "leaderboard",
                                          "record", "punteggio massimo", "最高分", "排行榜", "최고 점수", "최고점수",
                                          "ハイスコア", "最高得点")),
    ExtraEntry(id="sound", keywords=("sound*", "music", "audio", "sfx", "geluid*", "muziek", "musik", "suon*",
                                     "musica", "音效", "音乐", "音樂", "声音", "聲音", "사운드", "소리", "음악",
                                     "サウンド", "音楽", "効果音")),
    ExtraEntry(id="particles", keywords=("particle*", "explosion*", "sparkle*", "deeltje*", "partikel*", "explosie*",
                                         "particell*", "esplosion*", "粒子", "爆炸", "파티클", "폭발", "パーティクル",
                                         "爆発")),
    ExtraEntry(id="screen shake", keywords=("screen shake", "screenshake", "shake", "schud*", "wackel*", "tremolio",
                                            "震动", "震動", "흔들림", "画面揺れ", "振動")),
    ExtraEntry(id="boss", keywords=("boss*", "eindbaas", "endgegner", "首领", "首領", "보스", "ボス")),
    ExtraEntry(id="shield", keywords=("shield*", "schild*", "scudo", "scudi", "护盾", "護盾", "방패", "실드", "シールド")),
    ExtraEntry(id="double jump", keywords=("double jump", "dubbele sprong", "doppelsprung", "doppio salto", "二段跳",
                                           "이단 점프", "더블 점프", "二段ジャンプ")),
    ExtraEntry(id="levels get harder", keywords=("harder", "difficulty", "moeilijker", "schwieriger", "schwerer",
                                                 "più difficile", "越来越难", "越來越難", "难度", "難度", "어려워",
                                                 "난이도", "難しく", "難易度")),
)

#: knob extras ("name:value") the builder reads as multipliers
KNOBS = ("speed", "text_scale")


@lru_cache(maxsize=None)
def genre_ids() -> tuple[str, ...]:
    return tuple(g.id for g in GENRES)


@lru_cache(maxsize=None)
def _by_id() -> dict[str, CatalogueEntry]:
    return {g.id: g for g in GENRES}


def entry(genre: str) -> CatalogueEntry:
    """The catalogue entry of a genre; KeyError names the known genres."""
    try:
        return _by_id()[genre]
    except KeyError:
        raise KeyError(f"unknown genre {genre!r}; known: {', '.join(genre_ids())}") from None


def theme(theme_id: str) -> ThemeEntry:
    for t in THEMES:
        if t.id == theme_id:
            return t
    return DEFAULT_THEME


#: The stated numbers each game honours, and the range it can play (None: any value the spec allows).
#: A number a genre does not honour is reported as not built, never silently dropped; the game's test
#: hook reports each one (lives, levels, target, timeLeft, movesLeft, grid, speed) so QA can check it.
_EVERY_GAME = {"time_limit_s": None, "target_score": None, "speed": None}
_LIVES = {"lives": None}
_LEVELS = {"levels": None}
NUMBER_SUPPORT: dict[str, dict[str, tuple[int, int] | None]] = {
    "snake": {**_EVERY_GAME, **_LIVES, **_LEVELS, "grid": (6, 40)},
    "breakout": {**_EVERY_GAME, **_LIVES, **_LEVELS},
    "flappy": {**_EVERY_GAME, **_LIVES},
    "runner": {**_EVERY_GAME, **_LIVES},
    "shooter": {**_EVERY_GAME, **_LIVES, **_LEVELS},
    "platformer": {**_EVERY_GAME, **_LIVES, **_LEVELS},
    "pong": {**_EVERY_GAME, **_LIVES},
    "dodge": {**_EVERY_GAME, **_LIVES},
    "match3": {**_EVERY_GAME, "moves": None, "grid": (5, 10)},
    "memory": {**_EVERY_GAME, **_LIVES, **_LEVELS, "grid": (2, 8)},
    "slide2048": {**_EVERY_GAME, **_LIVES, "grid": (3, 8)},
    "blocks": {**_EVERY_GAME, **_LIVES, **_LEVELS},
    "whack": {**_EVERY_GAME, **_LIVES, "grid": (2, 5)},
    "clicker": dict(_EVERY_GAME),
    "simon": {**_EVERY_GAME, **_LIVES, **_LEVELS},
    "stacker": {**_EVERY_GAME, **_LIVES, **_LEVELS, "grid": (5, 11)},
}


def evidence_id(genre: str) -> str:
    """The id research evidence uses to cite a catalogue entry."""
    return f"catalogue:{genre}"
