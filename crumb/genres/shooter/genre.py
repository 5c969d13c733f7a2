"""Shooter: Move your ship along the bottom and shoot down the waves of enemies before they reach you."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='shooter',
    name='Shooter',
    order=5,
    names={'en': 'Shooter', 'nl': 'Schietspel', 'de': 'Ballerspiel', 'it': 'Sparatutto', 'zh-Hans': '射击', 'zh-Hant': '射擊', 'ko': '슈팅', 'ja': 'シューティング'},
    words={
        'en': Words(strong=('shoot*', 'space invaders', 'invaders', 'asteroids', 'shmup'), weak=('alien*', 'laser*', 'blast*', 'enemy', 'enemies', 'spaceship*', 'ship', 'bullet*')),
        'nl': Words(strong=('schiet*',), weak=('vijand*',)),
        'de': Words(strong=('schieß*', 'schiess*', 'ballerspiel'), weak=('feind*',)),
        'it': Words(strong=('spara*',), weak=('nemic*', 'astronav*')),
        'zh-Hans': Words(strong=('射击', '打飞机', '飞机大战'), weak=('外星', '敌人', '飞船')),
        'zh-Hant': Words(strong=('射擊', '打飛機', '飛機大戰'), weak=('外星', '敵人', '飛船')),
        'ko': Words(strong=('슈팅', '사격', '쏘는'), weak=('외계인', '우주선')),
        'ja': Words(strong=('シューティング', 'シューター', '撃つ'), weak=('敵', '宇宙船', 'エイリアン')),
        'any': Words(strong=('👾', '🔫')),
    },
    famous=('space invaders', 'shmup'),
    aliases=('space shooter', 'shmup', 'shoot em up', 'invaders'),
    core_loop='Move your ship along the bottom and shoot down the waves of enemies before they reach you.',
    controls=GenreControls(keys=('ArrowLeft', 'ArrowRight', ' '), pointer='move with the mouse; click to fire',
                      touch='drag to move; tap to fire'),
    win='Reach the target score or clear every wave.',
    lose='Get hit with no lives left, or let the enemies land.',
    rules='Enemies descend in formation and shoot back. Each hit on an enemy scores 10; a hit on the player costs a life.',
    references=('Space Invaders (Taito, 1978)', 'Galaga (Namco, 1981)', 'Asteroids (Atari, 1979)'),
    pitches=('space invaders style shooter, four lives, first to 2,500 points wins',),
    themes={'space': 1},
    palette={'bg': '#070b18', 'accent': '#48e5c2', 'accent2': '#fcd34d', 'danger': '#ff4766', 'fg': '#93a4c8', 'text': '#eef4ff'},
    defaults={'lives': 3},
    honours={'lives': None, 'levels': None, 'level_time_s': None},
    state_keys=('enemiesLeft', 'wave', 'shipX', 'killed'),
    survive_win=True,
)
