"""Whack-a-Mole: Moles pop out of holes for a moment; hit them before they hide to score."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='whack',
    name='Whack-a-Mole',
    order=13,
    names={'en': 'Whack-a-Mole', 'nl': 'Mep de mol', 'de': 'Hau den Maulwurf', 'it': 'Acchiappa la talpa', 'zh-Hans': '打地鼠', 'zh-Hant': '打地鼠', 'ko': '두더지 잡기', 'ja': 'モグラたたき'},
    words={
        'en': Words(strong=('whack*', 'mole*'), weak=('hammer', 'hole*', 'pop up', 'pops up'), verbs=('hit', 'smash*', 'bonk')),
        'nl': Words(strong=('mol', 'mollen'), weak=('hamer', 'gaten'), verbs=('slaan',)),
        'de': Words(strong=('maulwurf*', 'maulwürfe'), weak=('löcher',), verbs=('hau*',)),
        'it': Words(strong=('talpa', 'talpe'), weak=('martello', 'buch*'), verbs=('colpisci',)),
        'zh-Hans': Words(strong=('打地鼠', '地鼠'), weak=('锤', '洞'), verbs=('打', '叩')),
        'zh-Hant': Words(strong=('打地鼠', '地鼠'), weak=('錘', '洞'), verbs=('打', '叩')),
        'ko': Words(strong=('두더지',), weak=('망치', '구멍'), verbs=('때리',)),
        'ja': Words(strong=('モグラ', 'もぐら'), weak=('ハンマー', '穴')),
        'any': Words(strong=('🔨',)),
    },
    famous=('whack-a-mole', 'mole'),
    aliases=('whack a mole', 'whack-a-mole'),
    core_loop='Moles pop out of holes for a moment; hit them before they hide to score.',
    controls=GenreControls(keys=('1', '2', '3', '4', '5', '6', '7', '8', '9'), pointer='click a mole',
                      touch='tap a mole'),
    win='Reach the target score before the clock runs out.',
    lose='The clock runs out first (or too many moles escape).',
    rules='Moles appear at random holes, faster over time. A hit scores 10.',
    references=("Whac-A-Mole (Bob's Space Racers, 1976)",),
    pitches=('whack-a-mole, 30s, pastel',),
    themes={'spooky': 1},
    palette={'bg': '#1f3a1c', 'accent': '#9be15d', 'accent2': '#ffd54f', 'danger': '#ff5252', 'fg': '#d7f5c4', 'text': '#ffffff'},
    defaults={'time_limit_s': 60},
    honours={'lives': None, 'grid': (2, 5)},
    state_keys=('combo', 'hits', 'misses', 'swings', 'cursor', 'molesUp', 'holes', 'grid', 'up'),
)
