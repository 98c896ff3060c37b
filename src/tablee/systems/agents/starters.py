"""Tablée's original starter tables of the scenario generator, in French and English.

The text of the game refers to a quest-objective table, an environment generator and a
creature generator without giving them (G-A13). These are Tablée's own, in the table format
of `tablee.systems.agents.tables`, kept here as text so that drawing a quest reads no file:
`starter_tables` parses them. A group may write its own.

Source: G-A13; the tables are Tablée's (nothing in them comes from the text).
"""

from __future__ import annotations

from collections.abc import Mapping

from tablee.errors import N_, InputError
from tablee.systems.agents.tables import GeneratorTables, TableKind, parse_table

__all__ = ["LANGUAGES", "STARTER_TEXTS", "starter_tables"]

LANGUAGES = ("fr", "en")
"""Languages of the starter tables shipped with Tablée."""

_FR_OBJECTIVES = """\
# Table de départ originale de Tablée (G-A13) : le texte du jeu cite cette table sans la
# donner. Rien ici ne vient du texte. Écrivez la vôtre au même format (voir « Writing your
# own generator tables » dans docs/rules/agents.md) et vérifiez-la avec :
# tablee agents tables FICHIER
# Objectif de la quête : l'entrée tirée donne son nom à l'aventure.
@die d10
1  | Le Sceptre des Marées, qui commande aux océans de ce monde
2  | La Couronne d'Ambre, où dort la mémoire d'un empire disparu
3  | Le Cœur de la Forge Stellaire, une braise qui ne refroidit jamais
4  | Le Miroir aux Mille Reflets, qui montre les mondes voisins
5  | La Lance de l'Aube, que nul ne peut tenir sans briller
6  | Le Codex Muet, un livre qui répond aux questions qu'on ne pose pas
7  | L'Œuf du Serpent-Horloge, qui remonte le temps d'une heure
8  | Le Masque de Velours, qui rend irrésistible celui qui le porte
9  | La Boussole Inverse, qui indique toujours ce que l'on fuit
10 | La Graine-Monde, d'où peut naître une planète entière
"""

_FR_ENVIRONMENTS = """\
# Table de départ originale de Tablée (G-A13) : le texte du jeu cite cette table sans la
# donner. Rien ici ne vient du texte. Écrivez la vôtre au même format (voir « Writing your
# own generator tables » dans docs/rules/agents.md) et vérifiez-la avec :
# tablee agents tables FICHIER
# Environnement : où les agents arrivent, ou le décor du prochain challenge.
@die d12
1  | Une jungle de fougères géantes sous deux soleils
2  | Une cité flottante reliée par des ponts de corde
3  | Un désert de sel où chantent les dunes
4  | Un palais de cristal à moitié englouti
5  | Des marais phosphorescents sous une brume violette
6  | Un volcan endormi couvert de temples
7  | Une toundra où errent des statues vivantes
8  | Un bazar souterrain éclairé par des champignons
9  | Un archipel de rochers suspendus dans le ciel
10 | Une bibliothèque sans fin aux escaliers mouvants
11 | Un champ de bataille figé dans l'instant
12 | Un jardin impérial aux fleurs carnivores
"""

_FR_CREATURES = """\
# Table de départ originale de Tablée (G-A13) : le texte du jeu cite cette table sans la
# donner. Rien ici ne vient du texte. Écrivez la vôtre au même format (voir « Writing your
# own generator tables » dans docs/rules/agents.md) et vérifiez-la avec :
# tablee agents tables FICHIER
# Créatures : à adapter au type de challenge (menaçantes, séduisantes ou rusées).
@die d12
1  | Des amazones montées sur des lézards ailés
2  | Un prêtre-automate et ses fidèles de cuivre
3  | Une meute d'hommes-loups philosophes
4  | Une reine-araignée et sa cour
5  | Des pirates des nuages en montgolfière
6  | Un dragon de jade fatigué de sa solitude
7  | Des moines télépathes au crâne lumineux
8  | Une tribu de géants qui parlent en énigmes
9  | Des sirènes des sables
10 | Un sorcier bossu et ses homoncules
11 | Une garde d'élite de femmes-panthères
12 | Un essaim d'esprits-lucioles farceurs
"""

_FR_BOONS = """\
# Table de départ originale de Tablée (G-A13) : le texte du jeu cite cette table sans la
# donner. Rien ici ne vient du texte. Écrivez la vôtre au même format (voir « Writing your
# own generator tables » dans docs/rules/agents.md) et vérifiez-la avec :
# tablee agents tables FICHIER
# Aides : ce que gagnent les agents quand un succès les aide dans leur quête (ajout de Tablée).
@die d6
1 | Une carte griffonnée menant vers l'objectif
2 | Un allié local qui doit une faveur aux agents
3 | Un passage secret ou un raccourci
4 | Une rumeur vraie sur le gardien de l'artefact
5 | Une monture ou un véhicule de ce monde
6 | Un objet local qui ouvre une porte bien gardée
"""

_EN_OBJECTIVES = """\
# Tablée's original starter table (G-A13): the game's text refers to this table but
# does not give it. Nothing here comes from the text. Write your own in the same format
# (see "Writing your own generator tables" in docs/rules/agents.md) and check it with:
# tablee agents tables FILE
# Quest objective: the entry drawn names the adventure.
@die d10
1  | The Tide Sceptre, which rules the oceans of this world
2  | The Amber Crown, holding the memory of a vanished empire
3  | The Heart of the Star Forge, an ember that never cools
4  | The Mirror of a Thousand Faces, which shows the neighbouring worlds
5  | The Dawn Spear, which no one can hold without shining
6  | The Silent Codex, a book answering the questions nobody asks
7  | The Clockwork Serpent's Egg, which winds time back by one hour
8  | The Velvet Mask, which makes its wearer irresistible
9  | The Backward Compass, which always points at what you flee
10 | The World Seed, from which a whole planet may grow
"""

_EN_ENVIRONMENTS = """\
# Tablée's original starter table (G-A13): the game's text refers to this table but
# does not give it. Nothing here comes from the text. Write your own in the same format
# (see "Writing your own generator tables" in docs/rules/agents.md) and check it with:
# tablee agents tables FILE
# Environment: where the agents arrive, or the scenery of the next challenge.
@die d12
1  | A jungle of giant ferns under twin suns
2  | A floating city linked by rope bridges
3  | A salt desert where the dunes sing
4  | A crystal palace half sunk in a lake
5  | Glowing marshes under a purple haze
6  | A sleeping volcano crowned with temples
7  | A tundra roamed by living statues
8  | An underground bazaar lit by mushrooms
9  | An archipelago of rocks hanging in the sky
10 | An endless library with shifting stairs
11 | A battlefield frozen in a single instant
12 | An imperial garden of carnivorous flowers
"""

_EN_CREATURES = """\
# Tablée's original starter table (G-A13): the game's text refers to this table but
# does not give it. Nothing here comes from the text. Write your own in the same format
# (see "Writing your own generator tables" in docs/rules/agents.md) and check it with:
# tablee agents tables FILE
# Creatures: adapt them to the challenge type (threatening, seductive or cunning).
@die d12
1  | Amazons riding winged lizards
2  | A clockwork priest and his copper faithful
3  | A pack of philosophising werewolves
4  | A spider queen and her court
5  | Sky pirates in hot-air balloons
6  | A jade dragon weary of being alone
7  | Telepathic monks with glowing skulls
8  | A tribe of giants who speak in riddles
9  | Sand sirens
10 | A hunchbacked sorcerer and his homunculi
11 | An elite guard of panther women
12 | A swarm of prankster firefly spirits
"""

_EN_BOONS = """\
# Tablée's original starter table (G-A13): the game's text refers to this table but
# does not give it. Nothing here comes from the text. Write your own in the same format
# (see "Writing your own generator tables" in docs/rules/agents.md) and check it with:
# tablee agents tables FILE
# Boons: what the agents gain when a success helps their quest (Tablée's addition).
@die d6
1 | A scribbled map leading towards the objective
2 | A local ally who owes the agents a favour
3 | A secret passage or a shortcut
4 | A true rumour about the artefact's keeper
5 | A mount or vehicle of this world
6 | A local object that opens a well-guarded door
"""

STARTER_TEXTS: Mapping[str, Mapping[str, str]] = {
    "fr": {
        "objectives": _FR_OBJECTIVES,
        "environments": _FR_ENVIRONMENTS,
        "creatures": _FR_CREATURES,
        "boons": _FR_BOONS,
    },
    "en": {
        "objectives": _EN_OBJECTIVES,
        "environments": _EN_ENVIRONMENTS,
        "creatures": _EN_CREATURES,
        "boons": _EN_BOONS,
    },
}
"""Language -> table kind (``objectives``...) -> the table's text, file format."""


def starter_tables(language: str = "fr") -> GeneratorTables:
    """Tablée's original starter tables in ``fr`` or ``en``, parsed from `STARTER_TEXTS`.

    Raises:
        InputError: an unknown language.

    Source: G-A13 (the tables are Tablée's own writing).
    """
    if language not in LANGUAGES:
        raise InputError(
            N_("no starter tables in {language!r}; languages: {known}"),
            language=language,
            known=", ".join(LANGUAGES),
        )
    texts = STARTER_TEXTS[language]
    return GeneratorTables.of(
        {kind: parse_table(texts[kind.value], f"{language}/{kind.value}.txt") for kind in TableKind}
    )
