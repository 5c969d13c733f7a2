"""Dodge: Move left and right to dodge everything falling from the sky; surviving scores points."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='dodge',
    name='Dodge',
    order=8,
    names={'en': 'Dodge', 'nl': 'Ontwijk', 'de': 'Ausweichen', 'it': 'Schivata', 'zh-Hans': '躲避', 'zh-Hant': '躲避', 'ko': '피하기', 'ja': 'よけろ'},
    words={
        'en': Words(strong=('dodge*', 'dodging', 'avoid*', 'evade'), weak=('falling', 'fall', 'meteor*', 'rain*', 'survive', 'survival'), verbs=('catch*', 'collect*')),
        'nl': Words(strong=('ontwijk*',), weak=('vallend*', 'overleven'), verbs=('vangen',)),
        'de': Words(strong=('ausweich*', 'weich aus'), weak=('fallend*', 'überleb*'), verbs=('fangen', 'sammel*')),
        'it': Words(strong=('schiva*', 'evita*'), weak=('cadono', 'sopravviv*'), verbs=('prendi', 'raccogli')),
        'zh-Hans': Words(strong=('躲避', '闪避', '躲'), weak=('掉落', '生存'), verbs=('接', '收集')),
        'zh-Hant': Words(strong=('躲避', '閃避', '躲'), weak=('掉落', '生存'), verbs=('接', '收集')),
        'ko': Words(strong=('피하기', '피하는', '피해', '회피'), weak=('떨어지는', '살아남'), verbs=('잡', '모으')),
        'ja': Words(strong=('よけ*', '避け', '回避'), weak=('落下', '降って', '生き残'), verbs=('集め', 'キャッチ')),
    },
    aliases=('dodger', 'avoid', 'survive'),
    core_loop='Move left and right to dodge everything falling from the sky; surviving scores points.',
    controls=GenreControls(keys=('ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'), pointer='move with the mouse',
                      touch='drag to move'),
    win='Survive until the clock runs out or reach the target score.',
    lose='Get hit with no lives left.',
    rules='Hazards spawn at the top and fall faster over time; every hazard that passes scores 1.',
    references=('Dodge Ball games', 'Avoider (Flash era)'),
    pitches=('dodge the falling meteors for 45 seconds with 2 hearts',),
    themes={'space': 2, 'underwater': 1, 'desert': 2, 'spooky': 2, 'winter': 2, 'lava': 2},
    palette={'bg': '#160f24', 'accent': '#5eead4', 'accent2': '#f472b6', 'danger': '#fb7185', 'fg': '#a78bfa', 'text': '#fdf4ff'},
    defaults={'lives': 3, 'time_limit_s': 60},
    honours={'lives': None},
    state_keys=('starsCollected', 'hazards', 'player', 'star'),
    survive_win=True,
)
