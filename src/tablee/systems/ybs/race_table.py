"""The race-advice policies of every gang fight of 4 to 6 dice a side, solved once.

Written by ``scripts/race_table.py`` (do not edit): a zlib-compressed JSON object, in
base64, from `tablee.systems.ybs.race.table_key` to ``[our keeps, their keeps,
equilibrium, rounds]``, a keep per state as one character (``chr(48 + mask)``).

Source: seed 004; rulings Y-M7, Y-A13, Y-A14, Y-X9.
"""

__all__ = ["SOLUTIONS"]

SOLUTIONS: str = (
    "eNrt3V1rG0kaxfGvEnI9A/JEL2Zkgi6EEGIufWFYGxRWM2hhYCHZ3Ztlv/vqxZK7ZFWPVLK6u1q/B0woP/4nYKnrKO"
    "epPv3fz93uz52fvy3+848f//z++ddPf/vcaXZ1K6v+hTUYDMJltHlfWf16YQ2Hw3AZbT5UVl9TqtPCGtdRk8kkXJY0"
    "E6BpHTWbzcJlSTMB+q2yauO7nAAQAALwVwKwWCzGwXIcb1YFFfbD5XI5DZbTeLMq6PNPnz6/7i/rK2X1vuoUltvN9H"
    "1ztQCBQCAQCAQCgXKDVh9+//X937//9OnuZfUxeGMKf//29985wgwBhgBHmCPMESYABIAAcIRv0BFeX4/r9+/X3e90"
    "u2l3jjZXLRDoGDRYfX+4//5ksv4YsIeKzdVVsnonVg15nUDtvzT8ykEEwKUBKoX2jvAvr47wnWPC9dZ9CysfT2A0Gn"
    "WCZSfebDQ0rqcmKc1ToWk9NUtpngoxhQnALQvA86oS9vlSjAgwhh0VBoFAIBAIBAKBLjgqfOeoMFOAK8wV5gpzhQkA"
    "AeAK5ysCi7caB8txrFkdtLVhdzUNltNYszrouCt8eNTisLk7n9FEqHA2CFQftLpGR1Fo3fxgKDwt9pdQ7u9yl0YbL4"
    "214idcHKWYdzqICLg0vGGPQntn+MvGGe7llSxch0OQfh9xSlX7f/j0+4lT6qHS+vrVLca1Zk1MKq3KwyYqrN8qrTZf"
    "AaSDdJCOhFrkUMscKi2xYtOEwWAwGAwGg8Fgx5sHR6B7GaUlsypYFawKLjeXm8tNOkgH6eByc7lhsHfYORGamwunDs"
    "zrBrvtC8cLACMdLhzYtVzuX15d7jvHua9dg8Hpzdxu6h4OT29m4VaMWly1PDjw1fE+r3k+VssDBF8d7/Oa52OMbtJB"
    "OgqpH2Hux7F1NBkkBf9wKZnPk/bvBmGMb8Y3DAaDwWAwGAyWz/HuO8e7WRdcb64315vrzfUmHVxvrjfXm+sNg8FgMB"
    "gMBoNl7Hr/8e3PH3vbuy++293p7k4XbCLYRLAJ55t0kA7SIdiE0w2DwWAwGAwGg+V8vrsvvptVwargcnO5udxcbtJB"
    "OkgHl5vLDYNdOfHVbxImvtsLAHO9uXBg14vv7ovvvtot6IUKVge9sJnJLeiFClYHvbApyOSmgkzem9GlJviFWN1Gd6"
    "kJfiHG6L6+dDw+Jm3z18Di6vD4mCQdT09J2/w1sLg6PD2VS8fz0XqIdB7OIq7818fVprz7NYgVmb/+8VqjeDMLjHXO"
    "OofBYDAYDAaDwfI5IC4AnG/ON+eb88355nxzvjnfnG/ON+ebw2AwGAwGg8FgIsR3xnmvm1eEeOPviy/eIB8uo83G3w"
    "9fvDE+XEabDXfIBad8nD1++FTLaDMBmtZRBw+uPFzNLoR44ASAABCAawrAYrEYB8txvNloqLCJLpfLabCcxpuNhvZO"
    "9/Zxt68f0HfL3af3w+ZqAQKBQCAQCAQCgWJQeEJ8Y3TnckKcycHkYHJwubncXG4CQAAIAJc7W5f7rPDMpKhaEAgEAo"
    "FAIBDoVqAwQrzXzStCvNvCum9h5eNzjEajTrDsxJuNhsYtrGkLi9FNAG5MALb5IG+rcH3YTwQJwZsQFLI8xsFyHGs2"
    "HNqaxbuaBstprNlwyLFuEAgEAoFAIBDo+se67xzrZnZwu7nd3G5uNwEgANxubje3m9sNAoFAIBAIBAJl6HYHcd29vO"
    "K667A90m9kT6lqjYn0G9pTKotHXXZaXHU/6vKaVfejLq9ZHnVJOkgH6aixFi2uZYvLYzBhMBgMBoPBYLBO9g/dLJ5Z"
    "72UURc6GYcOwYTj4HHwOPukgHaSDg8/BP83BPyfKcfMrgcFgMBgMBoPBYE3ADmLWe3nFrLc3faDNKQTVx9Fc4MSMWl"
    "w1ZshM0pqnYzVmyczSmqdjTHzScfPS8Xy0HiKdh7OIK//1cbUp75aI0XyepAANwowFHOyHwWAwGAwGg8FgTTjYf+dg"
    "P2PHTMBMwEzATMBMgHRkNBMoq4ezqYr+GTMCM4L2zQj2SaC7jxrF/4kEzeBcU+OwzTUIBJaC4fk7vxzgDYHPz/NVVU"
    "dmoRvkBkhugMBTwP0U4stmCtH3jAAxEWIiJAxJGJIwZBBBOkgH6ZAw5FYCZ7hgMBgMBoPBYLBm3krQ94wANgwbhoPP"
    "wefgc/BJB+kgHRx8Dn4dmChY2IdgL0ewNrsA3iU39VZ2BbgCYKTDheMZAb2+ZwQIdZAHJA9IHpA8oJs28R8fk/brBm"
    "HxjffpKWm/bhD23OL6iHSg+TZqZ76vUbyZBWZoYGgAg8FgMBgMBoPBmnDs3xMETAxMDEwMTAxMDEwMTAxMDEwMTAxM"
    "DEwMYDAYDAaDwWCw25wY/PHtzx+7kUG/m1fcf11RD+Ey2gy+Pyj+2GDQjTXringIl9Fm8P1h8ceGw/tYs+GzgZb6oQ"
    "UPvRssu7Hm5dCk+GOTSTfWTIJW76eCd34fLO9jzcuhWfHHZrP7WDMJ4v4TAAJAAK4rAIvinrpYdGPNhkPBJros7qnL"
    "5X2s2XDo/XN6O4Xlu0cZvi5XCxAIBAKBQCAQCBSDwrPxG6M7l7PxjU8zLgYbhynH0WbjU4yLgcZhunG0yeRoedz98f"
    "Ppk8lpJ9tPhZpw1n02O+1E+6kQl5sAEAACcF0BWASLxTjebDQUbKLLYLGcxpuNht5Oj58ThZmUnwkCgUAgEAgEAt0K"
    "FMbG97t5xcaLfRH38rE+x2g06gTLTrzZaGjcwpq2sBjdBOCmBGCbdPJw8J2H0p+4AE6MVInvufN5wkbdCGhjIu9rHC"
    "zHsWbDoY2JvK9psJzGmg2HHPAGgUAgEAgEAoGuf8D7zgFvtgffm+/N9+Z7EwACwPfme/O9+d4gEAgEAoFAIFDWvncQ"
    "4d3LK8K7DgPkovvbB+uvwfbO9sG+SprVWhQX3ec+XH8Nt3e4D/dV0sziwZ+dFlcd4SeT9ddkm2Ay2VdJMxGrIwRltv"
    "6abZNMZvsqaSZiHvxJOkjHpfUSLF5KmqTjuHSsTeiIUR1pZoHt40gihnWkmQXmQZwwGAwGg8FgMFgn+wdxFk+v9zKK"
    "J8/LhhmExktslaUNMwyNl9iKg3/TDv4kNN9jq0MHPwWrwb8PzPfY6tDBT8E4+KSDdHDw65WO84+aJ55QrxpLOnKeeF"
    "K9aiwtDH2d77iEwWAwGAwGg8FgTcAOotd7eUWvtzeHoM15BNUH01zmxIzeqhMsO/FmFti4xTVtcTHxry8dj49J+3WD"
    "sPjG+/SUtF83CHtucSWG5pRJ1TaX5mzxaBC2aHEtW1yO/cNgMBgMBoPBYG079n/n2L+JgYmBiYGJgYmBiYGJgYmBiY"
    "GJgYmBiQEMBoPBYDAYDHaTE4Mg7r8v7v9KiQ+DtMoi8WGYVsKCbiosaFJp1ZYUVEGZGpAO0nFhVNBLSVjQQZN0vCsu"
    "PhcfBoPBYDAYDAaD1X/uvy/unw3Dwefgc/A5+Bx80sHBJx0c/NY5+AJTYXViLzlgXjfYbV84XgAY6fACwLKJ+++L+x"
    "fec2vhPaUuzajFJbxHeA8TX3iP8J6Ghve8feOvUn7iP1nY7+fz1z92NYo3s8CMEtwMAIPBYDAYDAaDwZpwM4CHAJgj"
    "mCOYI5gjmCOYI5gjmCO0Zo4wL7Po51Fnv6mYOULmc4TtLrX6ALb7OFL838q2uXlf754DsT8xBQReFXx+3m0wOZBeEW"
    "TjyIf35OOqnlZ1NdJ1ArTfUSCvyI2S+2nGl5f//R+huq4Z"
)
"""The stored solutions, compressed (read by `tablee.systems.ybs.race`)."""
