import CFFmpeg
