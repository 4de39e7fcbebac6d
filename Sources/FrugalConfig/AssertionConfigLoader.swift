import Yams
