"""Memory: Flip two cards at a time to find matching pairs; every pair found scores."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='memory',
    name='Memory',
    order=10,
    names={'en': 'Memory', 'nl': 'Memory', 'de': 'Memory', 'it': 'Memory', 'zh-Hans': '记忆翻牌', 'zh-Hant': '記憶翻牌', 'ko': '카드 기억', 'ja': '神経衰弱'},
    words={
        'en': Words(strong=('memory', 'concentration', 'matching pairs', 'match pairs', 'find the pairs', 'pairs'), weak=('card*', 'flip*'), verbs=('cards',)),
        'nl': Words(strong=('geheugen*', 'paren'), weak=('kaart*',), verbs=('kaarten',)),
        'de': Words(strong=('gedächtnis*', 'paare'), weak=('karte*',), verbs=('karten',)),
        'it': Words(strong=('memoria', 'coppie'), weak=('carte', 'carta'), verbs=('carte',)),
        'zh-Hans': Words(strong=('记忆', '翻牌', '配对'), weak=('卡片',), verbs=('卡',)),
        'zh-Hant': Words(strong=('記憶', '翻牌', '配對'), weak=('卡片',), verbs=('卡',)),
        'ko': Words(strong=('기억력', '짝 맞추기', '짝맞추기'), weak=('카드',), verbs=('카드',)),
        'ja': Words(strong=('神経衰弱', 'メモリー', 'ペア'), weak=('カード', 'めくる'), verbs=('カード',)),
        'any': Words(strong=('🃏',)),
    },
    aliases=('memory match',),
    core_loop='Flip two cards at a time to find matching pairs; every pair found scores.',
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Enter', ' '), pointer='click a card to flip it',
                      touch='tap a card to flip it'),
    win='Find every pair (or reach the target score).',
    lose='Run out of moves or time first.',
    rules='A matching pair stays open and scores 10; a mismatch flips back after a short look.',
    references=('Concentration (card game)', 'Memory (Ravensburger, 1959)'),
    pitches=('memory card game with matching pairs on a 4 by 4 board, 30 moves',),
    themes={'pastel': 1},
    palette={'bg': '#14182b', 'accent': '#4cc9f0', 'accent2': '#ffd166', 'danger': '#ef476f', 'fg': '#aab4d4', 'text': '#f8fbff'},
    honours={'lives': None, 'levels': None, 'grid': (2, 8), 'level_time_s': None},
    state_keys=('pairs', 'pairsLeft', 'mistakes', 'streak', 'flips', 'flipped', 'grid', 'cursor', 'cells'),
    idle_safe=True,
)
