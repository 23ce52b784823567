"""Wording shared by the families' instructions: English plurals, articles and counted nouns, and Chinese
measure words. Kind names (synth.families.kit.kinds.Kind.en) are singular noun phrases such as "red cross"; only
their last word inflects."""
# whole phrases or last words whose plural the rules below would get wrong
PLURALS = {
    "grapes": "bunches of grapes", "scissors": "pairs of scissors", "glasses": "pairs of glasses",
    "fish": "fish", "sheep": "sheep", "deer": "deer", "moose": "moose", "aircraft": "aircraft",
    "mouse": "mice", "goose": "geese", "tooth": "teeth", "foot": "feet", "person": "people", "child": "children",
    "man": "men", "woman": "women", "ox": "oxen", "cactus": "cacti",
    "knife": "knives", "leaf": "leaves", "wolf": "wolves", "loaf": "loaves", "calf": "calves", "half": "halves",
    "shelf": "shelves", "thief": "thieves", "elf": "elves", "scarf": "scarves", "life": "lives", "wife": "wives",
    "potato": "potatoes", "tomato": "tomatoes", "mango": "mangoes", "volcano": "volcanoes", "hero": "heroes",
}
SINGULARS = {"grapes": "bunch of grapes", "scissors": "pair of scissors", "glasses": "pair of glasses"}
# words starting with a vowel letter but a consonant sound ("a unicorn"), and the other way round ("an hour")
_CONSONANT_SOUND = ("uni", "use", "usu", "uten", "eu", "ewe", "one", "once")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")
# Chinese measure words of the kinds that do not take their category's (只 for animals, 辆 for vehicles, else 个)
MEASURE_WORDS = {"fish": "条", "horse": "匹", "snail": "只", "sailboat": "艘", "tree": "棵", "key": "把",
                 "umbrella": "把", "scissors": "把", "guitar": "把", "pencil": "支", "shoe": "只", "grapes": "串",
                 "house": "座", "hat": "顶", "star": "颗", "cherry": "颗", "strawberry": "颗", "heart": "颗",
                 "banana": "根", "carrot": "根"}


def _plural_word(word: str) -> str:
    if word in PLURALS:
        return PLURALS[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"                          # cross -> crosses, box -> boxes, bus -> buses
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"                    # cherry -> cherries, but key -> keys
    return word + "s"


def plural(noun: str) -> str:
    """The English plural of a singular noun phrase: "red cross" -> "red crosses", "grapes" -> "bunches of
    grapes"."""
    if noun in PLURALS:
        return PLURALS[noun]
    head, _, last = noun.rpartition(" ")
    return f"{head} {_plural_word(last)}" if head else _plural_word(last)


def singular(noun: str) -> str:
    """The noun for one object: "grapes" -> "bunch of grapes"."""
    return SINGULARS.get(noun, noun)


def article(noun: str) -> str:
    """The noun phrase with "a" or "an" as it sounds: "an apple", "a unicorn", "an hour"."""
    low = noun.lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u")
    if low.startswith(_CONSONANT_SOUND):
        vowel = False
    if low.startswith(_VOWEL_SOUND):
        vowel = True
    return ("an " if vowel else "a ") + noun


def count(n: int, noun: str) -> str:
    """A number with its noun in the right number: "1 second", "3 seconds"."""
    return f"{n} {noun if n == 1 else plural(noun)}"
