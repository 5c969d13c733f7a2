"""Platformer: Run and jump across platforms, collect coins and reach the flag at the end of each level."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='platformer',
    name='Platformer',
    order=6,
    names={'en': 'Platformer', 'nl': 'Platformspel', 'de': 'Plattformspiel', 'it': 'Piattaforme', 'zh-Hans': '平台跳跃', 'zh-Hant': '平台跳躍', 'ko': '플랫포머', 'ja': 'プラットフォーマー'},
    words={
        'en': Words(strong=('platformer', 'platform game', 'platforms', 'platform', 'jumper', 'jump and run', "jump 'n' run", "jump'n'run", 'mario'), weak=('jump*', 'ledge*', 'coin*', 'spring*')),
        'nl': Words(strong=('platformspel',), weak=('munten',)),
        'de': Words(strong=('plattform*',), weak=('münzen',)),
        'it': Words(strong=('piattaform*',), weak=('salta*', 'monete')),
        'zh-Hans': Words(strong=('平台跳跃', '平台游戏'), weak=('跳', '金币')),
        'zh-Hant': Words(strong=('平台跳躍', '平台遊戲'), weak=('跳', '金幣')),
        'ko': Words(strong=('플랫포머', '플랫폼'), weak=('점프', '동전')),
        'ja': Words(strong=('プラットフォーマー', 'プラットフォーム', 'ジャンプアクション'), weak=('ジャンプ', 'コイン')),
    },
    famous=('mario',),
    aliases=('platform', 'jumper'),
    core_loop='Run and jump across platforms, collect coins and reach the flag at the end of each level.',
    controls=GenreControls(keys=('ArrowLeft', 'ArrowRight', 'ArrowUp', ' '), pointer='click to jump',
                      touch='tap the left or right half to move; tap the top to jump'),
    win='Reach the goal of the last level (or the target score).',
    lose='Fall off the world or touch a hazard with no lives left.',
    rules='Gravity, solid platforms, coins worth 10, spikes and pits that cost a life.',
    references=('Super Mario Bros. (Nintendo, 1985)', 'Celeste (2018)'),
    pitches=('a platformer with 3 levels and double jump',),
    themes={'forest': 1, 'lava': 1},
    palette={'bg': '#17243b', 'accent': '#7bd389', 'accent2': '#ffd23f', 'danger': '#ee4266', 'fg': '#9fb4d8', 'text': '#ffffff'},
    defaults={'lives': 3, 'levels': 3},
    honours={'lives': None, 'levels': None, 'level_time_s': None},
    state_keys=('x', 'progress', 'coins', 'coinsLeft', 'onGround'),
    idle_safe=True,
)
