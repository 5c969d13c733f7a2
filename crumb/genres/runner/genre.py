"""Runner: Your runner dashes forward on its own; jump over the obstacles that scroll in."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='runner',
    name='Runner',
    order=4,
    names={'en': 'Runner', 'nl': 'Renner', 'de': 'Läufer', 'it': 'Corridore', 'zh-Hans': '跑酷', 'zh-Hant': '跑酷', 'ko': '러너', 'ja': 'ランナー'},
    words={
        'en': Words(strong=('runner*', 'endless run*', 'endless-run*', 'auto-run*', 'autorun*', 'dino', 't-rex', 'temple run'), weak=('run', 'running', 'jump over', 'obstacle*'), verbs=('jump*', 'hop*', 'spring*')),
        'nl': Words(strong=('renner', 'hardloper'), weak=('rennen', 'rent', 'springen', 'hindernissen')),
        'de': Words(strong=('endlosläufer', 'läufer'), weak=('hindernis*',)),
        'it': Words(strong=('corridore', 'corsa infinita'), weak=('corri*', 'ostacol*'), verbs=('salta',)),
        'zh-Hans': Words(strong=('跑酷', '无尽奔跑'), weak=('跑', '奔跑', '障碍'), verbs=('跳',)),
        'zh-Hant': Words(strong=('跑酷', '無盡奔跑'), weak=('跑', '奔跑', '障礙'), verbs=('跳',)),
        'ko': Words(strong=('러너', '달리기', '런 게임'), weak=('장애물', '달리는'), verbs=('점프',)),
        'ja': Words(strong=('ランナー', 'パルクール', 'ランゲーム'), weak=('走る', '障害物'), verbs=('ジャンプ',)),
    },
    famous=('endless runner', 'dino'),
    aliases=('endless runner', 'jump', 'dino'),
    core_loop='Your runner dashes forward on its own; jump over the obstacles that scroll in.',
    controls=GenreControls(keys=(' ', 'ArrowUp', 'ArrowDown'), pointer='click to jump',
                      touch='tap to jump'),
    win='Survive until the clock runs out or reach the target score.',
    lose='Hit an obstacle.',
    rules='The world scrolls faster over time. Jumping is the only action; distance scores points.',
    references=('Chrome Dino (Google, 2014)', 'Canabalt (2009)', 'Temple Run (2011)'),
    pitches=('an endless runner where you jump over cacti, 90 seconds',),
    themes={'forest': 2, 'desert': 1, 'winter': 1},
    palette={'bg': '#1b1433', 'accent': '#ff7ab6', 'accent2': '#7afcff', 'danger': '#ff4f4f', 'fg': '#c7b8ff', 'text': '#fff7fd'},
    honours={'lives': None},
    state_keys=('distance', 'obstaclesCleared', 'onGround', 'runSpeed'),
    survive_win=True,
)
