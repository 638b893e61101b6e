import MediaIO
